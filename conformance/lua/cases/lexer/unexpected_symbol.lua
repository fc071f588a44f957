print(load("x = @"))
print(load("return $"))
print(load("local 1 = 2"))
