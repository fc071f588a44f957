local a = 2.5
print(a | 1)
