local mt = {__eq = function(a, b) return a.v == b.v end}
local a = setmetatable({v = 1}, mt)
local b = setmetatable({v = 1}, mt)
local c = setmetatable({v = 2}, {})
print(a == b, a ~= b, a == c, c == a, rawequal(a, b))
local d = setmetatable({v = 1}, {__eq = function() return 1 end})
print(a == d, d == a)
print(a == 1, 1 == a)
