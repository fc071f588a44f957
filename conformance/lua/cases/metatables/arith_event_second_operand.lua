local mt = {__add = function(a, b) return "mt add " .. type(a) .. " " .. type(b) end}
local t = setmetatable({}, mt)
print(1 + t, t + 1, "s" + t)
local other = setmetatable({}, {__add = function() return "first wins" end})
print(other + t, t + other)
