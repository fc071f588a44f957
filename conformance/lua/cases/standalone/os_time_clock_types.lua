print(type(os.time()), math.type(os.time()), type(os.clock()), math.type(os.clock()))
print(os.time() > 1600000000, os.clock() >= 0)
print(os.time({year = 2020, month = 1, day = 1, hour = 12}) - os.time({year = 2020, month = 1, day = 2, hour = 12}))
print(type(os.date), type(os.date("%Y")), #os.date("%Y-%m-%d"))
