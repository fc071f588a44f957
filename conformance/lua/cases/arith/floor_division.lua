print(7 // 2, -7 // 2, 7 // -2, -7 // -2)
print(7.0 // 2, -7.0 // 2, 7 // -2.0, 7.5 // 2, -7.5 // 2)
print(0 // 5, math.type(7 // 2), math.type(7.0 // 2))
print(3 // 0.0, -3 // 0.0, 1 // math.huge, -1 // math.huge)
