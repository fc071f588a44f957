print(string.format("%s-%s-%s-%s-%s-%s-%s-%s-%s-%s", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
print(string.format("%3$s", "a"))
