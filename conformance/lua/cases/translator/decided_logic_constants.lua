-- an and/or whose literal left operand decides it is its right operand: a constant stays one in messages; names end at a NUL
print(pcall(function() return (false or "\0nul") << 1 end))
print(pcall(function() return (nil or "a\0b") + {} end))
print(pcall(function() return (true and "x") | 1 end))
print(pcall(function() return (1 and (nil or "y")) | 1 end))
print(pcall(function() local t = {} return t["k\0z"].x end))
print(pcall(function() local t = {} return t["k\0z"]() end))
local function f() return 1, 2, 3 end
print(false or f())
print(nil or f(), "a" and f())
print(#{false or f()}, select("#", true and f()))
