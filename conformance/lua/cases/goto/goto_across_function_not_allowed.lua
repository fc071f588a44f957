print(load("::l:: local function f() goto l end"))
