print(0, 42, 0x10, 0XfF, 0xa, 007, 1e2, 1E2)
print(math.type(1), math.type(1.0), math.type(1e2), math.type(0x10))
print(9223372036854775807, -9223372036854775807 - 1)
