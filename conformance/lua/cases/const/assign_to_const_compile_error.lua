print(load("local x <const> = 1; x = 2"))
print(load("local a, b <const> = 1, 2; b = 3"))
