print(1 == 1.0, 2^53 == 2^53 + 1, math.maxinteger == math.maxinteger + 0.0)
print(math.maxinteger < math.maxinteger + 0.0, math.mininteger == -2^63)
print(1 < 1.5, 2 > 1.5, -1 < -0.5, 3 <= 3.0, math.huge > math.maxinteger)
print(0.0 == -0.0, 1/0 > 1e308, -math.huge < math.mininteger)
