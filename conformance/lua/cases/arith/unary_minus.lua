local a = 5
print(-a, - -a, -(-a), -0, -0.0 == 0.0, -math.mininteger == math.mininteger)
print(-"2", -"2.5", math.type(-"2"), -" 0x10 ")
