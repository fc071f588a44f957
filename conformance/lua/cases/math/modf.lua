print(math.modf(3.7), math.modf(-3.7), math.modf(5), math.modf(-0.5))
print(math.modf(math.huge), math.modf(-math.huge), math.type(math.modf(5)), math.type((math.modf(3.5))))
