print(1 / 0, -1 / 0, 1.0 // 0, -1 // 0.0, 1 / 0.0)
print(1 / 0 == math.huge, -1 / 0 == -math.huge, 0.0 / 1 == 0)
local z = 0
print(5 / z, -5 / z)
