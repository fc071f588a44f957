print(type(load("return 1 // 0")))
print(pcall(load("return 1 // 0")))
print(pcall(load("return 1 % 0")))
print(load("return 1 / 0")())
