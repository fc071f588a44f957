-- Lua indexes with OP_GETI, named "field 'integer index'" in errors, a key its
-- constant folding makes an integer from 0 to 255: arithmetic, bitwise
-- operations and shifts of numerals, floats with an integer value in bitwise
-- operations, <const> locals.  (Found by the campaign.)
local t = {}
print(pcall(function() return t[2] | 1 end))
print(pcall(function() return t[(-7 % 3)] | 1 end))
print(pcall(function() return t[1 + 1] | 1 end))
print(pcall(function() return t[7 // 2] | 1 end))
print(pcall(function() return t[2^1] | 1 end))
print(pcall(function() return t[-(-2)] | 1 end))
print(pcall(function() return t[300 - 100] | 1 end))
print(pcall(function() return t[256] | 1 end))
print(pcall(function() return t[3 & 2] | 1 end))
print(pcall(function() return t[1 << 1] | 1 end))
print(pcall(function() return t[~-3] | 1 end))
print(pcall(function() return t[5 % 0] | 1 end))
print(pcall(function() return t[2.0] | 1 end))
print(pcall(function() return t[4 / 2] | 1 end))
print(pcall(function() return t["a" .. "b"] | 1 end))
print(pcall(function() return t.x | 1 end))
print(pcall(function() return t[2.0 & 3] | 1 end))
print(pcall(function() return t[1.5 & 3] | 1 end))
print(pcall(function() return t[(1 << 63) >> 62] | 1 end))
print(pcall(function() return t[-1 >> 56] | 1 end))
print(pcall(function() return t[1 << 64] | 1 end))
local k <const> = 3
print(pcall(function() return t[k - 1] | 1 end))
print(pcall(function() return t[2 ^ 53 // 1 & 7] | 1 end))
