-- An `and`/`or` whose left operand is a constant to Lua's code generator
-- (a literal, a <const> local, `not` of a constant, folded numbers) is its
-- right operand: an error then names that operand.  (Found by the campaign.)
local t = {}
local c <const> = 1
local n <const> = nil
print(pcall(function() return ((not not 1.5) and t) - 1 end))
print(pcall(function() return (-1 and t) + 1 end))
print(pcall(function() return (c and t) + 1 end))
print(pcall(function() return (n or t) + 1 end))
print(pcall(function() return (2^53 and t) + 1 end))
print(pcall(function() return (1 + 2 and t) + 1 end))
print(pcall(function() return (not 1 or t) + 1 end))
print(pcall(function() return (not nil and t) + 1 end))
print(pcall(function() return (not (1) or t) .. "" end))
print(pcall(function() return (not c or t) + 1 end))
print(pcall(function() return (~1 and t) + 1 end))
print(pcall(function() return (true and not nil and t) + 1 end))
print(pcall(function() local a = {} return (not nil and a) .. "" end))
-- Not constants: a division by zero, a zero or NaN result, a concatenation.
print(pcall(function() return (1 // 0 and t) + 1 end))
print(pcall(function() return (1 - 1.0 and t) + 1 end))
print(pcall(function() return (0/0 and t) + 1 end))
print(pcall(function() return ("a" .. "b" and t) + 1 end))
print(pcall(function() return (1.5 | 1 and t) + 1 end))
print(not not 1.5, not nil, not 1 or 2, 1 + 2 and "x", nil or -0.0)
