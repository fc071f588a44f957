-- lparser.c takes a C level per nested expression as it reads it: past
-- LUAI_MAXCCALLS it fails there, before it can find a syntax error after
-- the nesting has closed again.
print(pcall(load, string.rep("(", 250) .. "1" .. string.rep(")", 250)))
print(pcall(load, string.rep("(", 198) .. "1" .. string.rep(")", 198)))
print(pcall(load, "f" .. string.rep("(", 199) .. string.rep(")", 199) .. "+"))
print(pcall(load, "x = " .. string.rep("[", 10) .. "1" .. string.rep("]", 10)))
print(pcall(load, string.rep("(", 20) .. "1" .. string.rep(")", 20)))
print(pcall(load, string.rep("{", 190) .. string.rep("}", 190) .. " x"))
print(load("x = " .. string.rep("{", 150) .. string.rep("}", 150)) ~= nil)
print(coroutine.wrap(function() return select(2, load(string.rep("(", 197) .. "1" .. string.rep(")", 197))) end)())
