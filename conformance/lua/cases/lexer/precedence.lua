print(2 + 3 * 4 ^ 2 / 8, -3 ^ 2, not 1 == 2, 1 .. 2 == "12")
print(1 < 2 == true, "a" .. "b" == "ab" and 1 or 2, 1 + 2 .. "")
print(2 ^ -1, - - 2, not not nil, #"abc" + 1, -#"ab")
print(1 | 2 ~ 3 & 4 << 1, 3 .. 4 + 5, 1 << 2 + 1)
