-- (under pcall: a bare load would let lua.c's traceback handler decorate the message)
print(pcall(load, function() return {} end))
local n = 0
print(load(function() n = n + 1; if n == 1 then return 42 end end))
print(pcall(load, function() error("reader failed") end))
