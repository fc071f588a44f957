local env = {print = print, x = 42}
local f = load("x = x + 1; return x", "chunk", "t", env)
print(f(), env.x, x)
local g = load("return y", "c", "t", {y = "from env"})
print(g())
local h = load("return print", "c", "t", {})
print(h())
