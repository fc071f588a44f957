print(tonumber("ff", 16), tonumber("FF", 16), tonumber("777", 8), tonumber("11", 2), tonumber("zz", 36))
print(tonumber("10", 36), tonumber("  101  ", 2), tonumber("-ff", 16), tonumber("Z", 36))
print(tonumber("12", 2), tonumber("", 10), tonumber("1.5", 10), tonumber("0x10", 16), tonumber("8", 8))
print(tonumber("7fffffffffffffff", 16), tonumber("ffffffffffffffff", 16), tonumber("10000000000000000", 16))
