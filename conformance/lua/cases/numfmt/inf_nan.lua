print(math.huge, -math.huge, 1/0, -1/0)
print(math.huge .. "", tostring(-math.huge), string.format("%f", math.huge))
print(0/0 ~= 0/0, tostring(0/0) == tostring(0/0))
