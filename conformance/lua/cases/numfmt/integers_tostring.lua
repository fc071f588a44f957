print(0, -1, math.maxinteger, math.mininteger, 1e3 // 1 | 0)
print(tostring(42), tostring(-42), tostring(0x10), tostring(1 << 62))
