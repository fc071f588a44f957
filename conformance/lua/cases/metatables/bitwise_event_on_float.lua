local mt = {__band = function(a, b) return "band called" end}
local t = setmetatable({}, mt)
print(t & 1.5, 1.5 & t)
print(pcall(function() return 1.5 & 1 end))
