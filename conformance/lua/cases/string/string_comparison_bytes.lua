print("a" < "b", "a" < "B", "\xff" > "a", "abc" < "abcd", "" < "\0", "\0" < "\1")
