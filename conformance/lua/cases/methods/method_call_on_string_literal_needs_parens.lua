print(load('return "x":rep(2)'))
print(load('return ("x"):rep(2)')())
