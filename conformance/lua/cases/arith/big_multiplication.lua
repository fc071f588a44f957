print(3037000499 * 3037000499, 3037000500 * 3037000500)
print(math.maxinteger * math.maxinteger, math.mininteger * math.mininteger)
print(0x100000000 * 0x100000000, 2^32 * 2^32)
