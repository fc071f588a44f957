print(3 | 0, math.tointeger(3.0), math.tointeger(3.5), math.tointeger("8"))
print(string.format("%d", 3.0), pcall(string.format, "%d", 3.5))
print(math.floor(3.7), math.ceil(3.2), math.type(math.floor(3.7)), math.floor(2^62))
print(math.floor(1e100), math.type(math.floor(1e100)), math.ceil(-0.5))
