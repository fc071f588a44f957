-- Parentheses leave no trace in the bytecode: the variable info of a
-- message names the variable inside them.
local m = 7
local t = {}
print(pcall(function() return (m).x end))
print(pcall(function() local v = 3; return (v).x end))
print(pcall(function() return (t.x).y end))
print(pcall(function() return (m) + {} end))
print(pcall(function() return -(m and {}) end))
print(pcall(function() return (m)() end))
print(pcall(function() return #(m) end))
print(pcall(function() (m).x = 1 end))
print(pcall(function() local v = 3; return (v):up() end))
print(pcall(function() return (t.x):up() end))
print(pcall(function() return (t.x)() end))
