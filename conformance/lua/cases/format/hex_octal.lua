print(string.format("%x %X %o", 255, 255, 8))
print(string.format("%#x %#X %#o", 255, 255, 8))
print(string.format("[%8x] [%-8X] [%08x]", 48879, 48879, 48879))
print(string.format("%x %X %o", -1, math.mininteger, -1))
