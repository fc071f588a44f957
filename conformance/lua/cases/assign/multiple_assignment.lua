local a, b, c = 1, 2
print(a, b, c)
a, b = b, a
print(a, b)
local x, y = 1, 2, 3
print(x, y)
