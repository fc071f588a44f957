local function f(...) return ... end
print(f(1, 2), f(3, 4))
local t = {f(1, 2), f(3, 4)}
print(#t, t[1], t[2], t[3])
local x, y, z = f(1, 2), 10
print(x, y, z)
