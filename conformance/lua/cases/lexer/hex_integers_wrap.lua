print(0xffffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff)
print(0x10000000000000000, 0x1ffffffffffffffff)
print(math.type(0xffffffffffffffffff))
