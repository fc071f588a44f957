x = "global x"
local f = load("return x")
print(f())
local env = setmetatable({}, {__index = _G})
local g = load("x = 'env x'; return x", "c", "t", env)
print(g(), x, env.x)
