local s = "hello world"
print(s:sub(1, 5), s:sub(7), s:sub(-5), s:sub(-5, -3), s:sub(0), s:sub(3, 2))
print(s:sub(100), s:sub(-100, 2), s:sub(2, -2), s:sub(5, 5), s:sub(math.mininteger, math.maxinteger))
print(("abc"):sub(2.0), pcall(string.sub, "abc", 1.5))
