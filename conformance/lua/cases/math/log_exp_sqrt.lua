print(math.log(1), math.log(math.exp(1)), math.log(8, 2), math.log(100, 10), math.log(1000, 10))
print(math.log(0), math.log(2, 2), math.log(81, 3), math.log(1024, 4))
print(math.exp(0), math.sqrt(16), math.sqrt(2), math.sqrt(-1) ~= math.sqrt(-1), math.sqrt(0))
print(math.log(-1) ~= math.log(-1), math.exp(710), math.type(math.sqrt(4)))
