local s = "a\u{E9}b\u{20AC}c"
print(utf8.offset(s, 1), utf8.offset(s, 2), utf8.offset(s, 3), utf8.offset(s, 4), utf8.offset(s, 5), utf8.offset(s, 6), utf8.offset(s, 7))
print(utf8.offset(s, -1), utf8.offset(s, -2), utf8.offset(s, -5), utf8.offset(s, -6))
print(utf8.offset(s, 0, 3), utf8.offset(s, 0, 6), utf8.offset(s, 1, 4), utf8.offset(s, 2, 2))
print(pcall(utf8.offset, s, 1, 3))
print(pcall(utf8.offset, s, 1, 20))
