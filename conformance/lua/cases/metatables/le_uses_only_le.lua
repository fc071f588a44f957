local mt = {__le = function(a, b) return "le" end}
local a, b = setmetatable({}, mt), setmetatable({}, mt)
print(a <= b, a >= b, pcall(function() return a < b end))
