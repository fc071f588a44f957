print(math.max(1, 5, 3), math.min(1, 5, 3), math.max(-1), math.min(2.5, 2), math.max(2, 2.0))
print(math.type(math.max(1, 2)), math.type(math.max(1.0, 2)), math.max(math.mininteger, -math.huge))
print(pcall(math.max), pcall(math.min))
print(math.min(1, 1.0), math.max(1.0, 1), math.max("10", "9"))
