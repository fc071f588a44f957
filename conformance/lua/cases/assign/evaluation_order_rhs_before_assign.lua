local a = {}
local i = 3
i, a[i] = i + 1, 20
print(i, a[3], a[4])
local x, y = 1, 2
x, y = y, x
print(x, y)
