local t = setmetatable({}, {__tostring = function() error("tostring failed", 0) end})
print(pcall(print, t))
print(pcall(tostring, t))
