local t = {1, 2, 3}
t[1], t[3] = t[3], t[1]
print(t[1], t[2], t[3])
local i = 1
i, t[i] = i + 1, 20
print(i, t[1], t[2])
