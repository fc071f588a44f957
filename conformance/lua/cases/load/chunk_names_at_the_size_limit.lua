-- luaO_chunkid keeps a string source whole only when it is shorter than
-- 45 bytes (and on one line), a "=" name up to 59, an "@" name up to 59.
for n = 43, 47 do print(pcall(load("error('x')", string.rep("a", n)))) end
print(pcall(load("error('x')                                   ")))
print(pcall(load("error('x')                                  ")))
print(pcall(load("error('x')\n", string.rep("b", 44) .. "\nmore")))
for n = 58, 62 do print(pcall(load("error('x')", "=" .. string.rep("c", n)))) end
for n = 58, 62 do print(pcall(load("error('x')", "@" .. string.rep("d", n)))) end
