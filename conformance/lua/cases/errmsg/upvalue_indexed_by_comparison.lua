-- An upvalue indexed by a comparison is loaded after the comparison's jump,
-- so Lua names no variable (findsetreg's filterpc); other keys keep the name.
-- (Found by the campaign.)
local n3, n27 = 0, 1
local l = 5
print(pcall(function() return n3[1e15 ~= n27] end))
print(pcall(function() return n3[(n27 < 2)] end))
print(pcall(function() return n3[not (n27 < 2)] end))
print(pcall(function() return n3[n27 and 1] end))
print(pcall(function() return n3[true and n27] end))
print(pcall(function() return n3[true and n27 == 1] end))
print(pcall(function() return n3[nil or n27] end))
print(pcall(function() return n3[n27 or 1] end))
print(pcall(function() return n3[not n27] end))
print(pcall(function() return n3[(n27 < 2) + 1] end))
print(pcall(function() return (n3)[n27 < 2] end))
print(pcall(function() return n3["k"] end))
print(pcall(function() return n3.k end))
print(pcall(function() return l[n27 < 2] end))
print(pcall(function() return n3[n27 < 2].x end))
print(pcall(function() n3[n27 < 2] = 1 end))
print(pcall(function() n3[n27] = 1 end))
