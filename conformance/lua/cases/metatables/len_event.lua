local t = setmetatable({1, 2, 3}, {__len = function(t) return 42 end})
print(#t, rawlen(t))
local s = setmetatable({}, {__len = function() return "not a number" end})
print(#s)
