print(math.huge, -math.huge, math.pi, math.maxinteger, math.mininteger)
print(math.maxinteger + 1 == math.mininteger, math.type(math.huge), math.type(math.maxinteger))
print(string.format("%.15f", math.pi))
