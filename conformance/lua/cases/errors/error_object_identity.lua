local obj = {}
local ok, e = pcall(error, obj)
print(ok, e == obj)
local ok2, e2 = pcall(function() error(obj, 2) end)
print(ok2, e2 == obj)
