print(-1 >> 1 == math.maxinteger, math.mininteger >> 1)
print(string.format("%x", -1), string.format("%X", math.mininteger))
print(math.ult(1, -1), math.ult(-1, 1), math.ult(0, 0))
