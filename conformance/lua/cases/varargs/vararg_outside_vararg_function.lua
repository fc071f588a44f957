print(load("function f() return ... end"))
