-- lua5.4 is built with LUA_COMPAT_LT_LE: without __le, a <= b is not (b < a) through __lt
local mt = {__lt = function(a, b) print("lt", a.v, b.v) error("x") end}
local a, b = setmetatable({v=1}, mt), setmetatable({v=2}, {})
print(pcall(function() return a <= b end))
print(pcall(function() return b <= a end))
print(pcall(function() return a >= b end))
print(pcall(function() return 1 <= a end))
local mt2 = {__lt = function(a, b) return nil end}
local c = setmetatable({}, mt2)
print(c <= c, c >= c)
mt.__lt = function() return 1 end
print(a <= b, b <= a)
print(select(2, xpcall(function() return a <= {} end, function(m) return "handled " .. tostring(m) end)))
-- immediates, constants and both orders
mt = {__lt = function(a, b) print("lt", type(a), type(b)) return false end}
a = setmetatable({}, mt)
print(a <= 1, a >= 1, 1 <= a, 1 >= a, a <= 1.5, "x" >= a)
local t = {a}
print(t[1] <= t[1])
local function f(x, y) return x <= y, x >= y, not (x <= y) end
print(f(a, a))
if a <= a then print("yes") else print("no") end
while a <= 2 do break end
print(pcall(function() return setmetatable({}, {}) <= 1 end))
