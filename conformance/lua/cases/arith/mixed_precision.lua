print(2^53 + 1 == 2^53, (2^53|0) + 1)
print(math.maxinteger + 0.0, math.maxinteger // 1.0)
print(1e15 + 0.3, 123456789012 * 1000)
