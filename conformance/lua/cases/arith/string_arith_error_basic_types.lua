-- The string metatable's arithmetic names the operands' basic types
-- (luaL_typename), whatever a metatable's __name says.  (Found by the
-- campaign.)
local N = setmetatable({}, {__name = "Named"})
print(pcall(function() return N + "x" end))
print(pcall(function() return "x" - N end))
print(pcall(function() return "1" * N end))
print(pcall(function() return "a" // "b" end))
print(pcall(function() return -"abc" end))
-- Arithmetic without a string names __name.
print(pcall(function() return N + 1 end))
