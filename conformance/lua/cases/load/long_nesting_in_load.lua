local src = "return " .. string.rep("(", 100) .. "1" .. string.rep(")", 100)
print(load(src)())
local t = "return " .. string.rep("{", 50) .. string.rep("}", 50)
print(type(load(t)()))
