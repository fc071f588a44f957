local f, s, c = ipairs({"x"})
print(type(f), type(s), c)
print(f(s, 0))
print(f(s, 1))
