print(string.format("%d %d", math.maxinteger, math.mininteger))
print(string.format("%.0f", 2^63), string.format("%.0f", 1e20))
print(string.format("%e", 1e300 * 10), string.format("%g", 1e-320 > 0 and 1e-300 or 0))
print(#string.format("%099d", 7), #string.format("%.99f", 1))
