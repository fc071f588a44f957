local f = load("return 1 + 2")
print(type(f), f())
local g = load("local a, b = ...; return a * b")
print(g(6, 7))
