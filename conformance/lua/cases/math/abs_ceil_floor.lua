print(math.abs(-5), math.abs(5.5), math.abs(-0.0), math.abs(math.mininteger), math.type(math.abs(-5)))
print(math.ceil(1.2), math.ceil(-1.2), math.ceil(5), math.floor(1.8), math.floor(-1.2), math.floor(7))
print(math.type(math.ceil(1.2)), math.ceil(2^70), math.floor(-2^70), math.ceil(1e308) == 1e308)
print(pcall(math.floor, "x"), pcall(math.abs))
