print(load("break"))
print(load("if true then break end"))
