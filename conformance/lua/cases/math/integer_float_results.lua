print(math.type(3 // 1), math.type(3.0 // 1), math.type(2^2), math.type(7 % 2), math.type(math.floor(3.5)))
print(math.floor(-0.0), 1 / math.floor(-0.0) < 0, math.ceil(-0.5), math.type(math.ceil(-0.5)))
