-- Constant folding makes negative numbers of -(2^63), -1 and -(1/2): as
-- table keys, operands and results they keep their sign and their type.
print(({[-(2^63)] = 1})[2^53], ({[-(2^63)] = 1})[-(2^63)])
local t = {[-(2^63)] = "low", [-1] = "minus one", [-0.5] = "half"}
print(t[-(2^63)], t[math.mininteger], t[-1], t[- 1.0], t[-0.5], t[-(1/2)])
print(-(2^63) // 1, (-2) ^ 2, -2 ^ 2, (-(2^53)) % 7, -(1 // 1) | 0)
