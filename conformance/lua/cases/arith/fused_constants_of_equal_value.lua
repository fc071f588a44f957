-- Arithmetic fused into one expression keeps each constant: true, 1 and
-- 1.0 are equal as Python values but not as Lua operands.  (Found by the
-- campaign: 1 - (true + 10) gave -10.)
print(pcall(function() return math.type((1 - (true + 10))) end))
print(pcall(function() local x = 1 - (true + 10) return x end))
local function f(x) return math.type(1 - (1.0 + x)), 1 - (1.0 + x), 2 * (1 + (1.0 - x)) end
print(f(3))
local function g(x) local y = 1 - (1.0 * x) return y, math.type(y) end
print(g(2))
print(pcall(function() return 1 + (false - 0) end))
