local m, n = math.mininteger, -1
print(m // n, m % n, m * n, m / n)
print(math.mininteger // 1, math.mininteger // math.mininteger)
