local n = 0
local mt = {__eq = function() n = n + 1; return false end}
local a = setmetatable({}, mt)
print(a == a, n)
local b = setmetatable({}, mt)
print(a == b, n)
