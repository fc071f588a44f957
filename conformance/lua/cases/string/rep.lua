print(string.rep("ab", 3), string.rep("x", 0), string.rep("x", -1), string.rep("", 100))
print(string.rep("ab", 3, ","), string.rep("x", 1, ","), string.rep("x", 0, ","), string.rep("-", 2, ""))
print(#string.rep("abc", 1000), pcall(string.rep))
