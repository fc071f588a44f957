local a, b = {}, {}
print(a == b)
print(a < b)
