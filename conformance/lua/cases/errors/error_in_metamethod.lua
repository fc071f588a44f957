local t = setmetatable({}, {__index = function(t, k) error("no field " .. k) end})
print(pcall(function() return t.x end))
local u = setmetatable({}, {__add = function() error("cannot add", 2) end})
print(pcall(function() return u + 1 end))
