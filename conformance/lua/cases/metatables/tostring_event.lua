local t = setmetatable({}, {__tostring = function(self) return "custom!" end})
print(t, tostring(t))
local bad = setmetatable({}, {__tostring = function() return 42 end})
print(pcall(tostring, bad))
