print(1 < 2, 2 < 1, "a" < "b", "abc" < "abd", "Z" < "a", "" < "a")
print("a" < "ab", "10" < "9", "a\0b" < "a\0c", "a\0" > "a")
print(1 <= 1, "x" >= "x", "b" > "a")
