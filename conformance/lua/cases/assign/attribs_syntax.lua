local a <const>, b = 1, 2
b = 3
print(a, b)
print(load("local x <foo> = 1"))
