print(pcall(string.sub))
print(pcall(string.sub, "abc", "x"))
print(pcall(string.sub, "abc", 1, {}))
print(("x"):sub("2"))
local s = "abc"
print(s:sub("a"))
