-- A key in parentheses or decided by a constant and/or left operand is a
-- constant to Lua's code generator: the field is named.  (Found by the campaign.)
local t = {}
print(pcall(function() return t[(3.0 and "__class__")] + 1 end))
print(pcall(function() return t[("k")] + 1 end))
print(pcall(function() return t[nil or "m"] + 1 end))
print(pcall(function() return t[false and "m"] + 1 end))
print(pcall(function() return t[(true and 7)] + 1 end))
print(pcall(function() return t[1 or 7] + 1 end))
print(pcall(function() return t[(3)] + 1 end))
print(pcall(function() t[("k")].x = 1 end))
