print(2 ^ 10, 2 ^ 0.5 == math.sqrt(2), 2 ^ -2, (-2) ^ 2, -2 ^ 2)
print(10 ^ 2, 0 ^ 0, math.type(2 ^ 2), 2 ^ 3 ^ 2, (2 ^ 3) ^ 2)
print(1 ^ math.huge, 2 ^ 1024, 2 ^ -1080)
