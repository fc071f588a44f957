local mt = {__lt = function(a, b) return "yes" end}
local t = setmetatable({}, mt)
print(t < 1, 1 < t, "a" < t)
