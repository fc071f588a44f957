print(1 + 2, 1 + 2.0, 3 - 1.0, 2 * 3, 2 * 3.0)
print(math.type(1 + 2), math.type(1 + 2.0), math.type(6 / 2), 6 / 2)
print(7 / 2, 1 / 3 * 3, math.type(2 ^ 2), 2 ^ 2)
