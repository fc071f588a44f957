print(pcall(load))
print(pcall(load, 42))
print(pcall(load, "return 1", "c", "x"))
