local s = "abcabc"
print(s:match("b", 1), s:match("b", 3), s:match("b", -2), s:match("b", 10), s:match("^b", 2))
print(s:find("b", 0), s:find("b", -100), s:find("c", -1))
