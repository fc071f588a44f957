local s = "hello world, hello"
print(s:find("hello"), s:find("hello", 2), s:find("xyz"))
print(s:find("o", -3), s:find("l", 1, true), s:find("", 5), s:find("", 100))
print(s:find(".", 1, true), ("a.b"):find(".", 1, true), ("a+b"):find("+", 1, true))
print(s:find("o w"), s:find("(o)(r)"), ("abc"):find("b", -1), ("abc"):find("", 4), ("abc"):find("", 5))
