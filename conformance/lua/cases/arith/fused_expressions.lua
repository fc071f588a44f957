-- Chains of + - * on the same operands: ints wrap, floats stay IEEE, mixes convert per operation.
local a, b, c = math.maxinteger, 2, 3
print(a * b + c, a + a + a, -a * b - c, (a + 1) * (b - 5))
local x, y, z = 1.5, 2.25, -0.5
print(x * x + y * y + z * z, x - y * z, -(x * y) + z)
local i, f = 3, 0.5
print(i * i + f, i * f * i, (i + 1) * (f - 1))
local s = "10"
print(s * 2 + 1, 2 * s - s)
local t = setmetatable({}, {__add = function(p, q) return 100 end, __mul = function() return 7 end})
print(t * 2 + 1, 1 + t * 3)
