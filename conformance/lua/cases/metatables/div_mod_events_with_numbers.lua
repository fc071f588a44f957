local mt = {__div = function(a, b) return "div" end, __mod = function() return "mod" end, __idiv = function() return "idiv" end}
local t = setmetatable({}, mt)
print(t / 0, 0 / t, t % 0, t // 0)
