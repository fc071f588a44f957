print(load("local x <const> = 1; local function f() x = 2 end"))
