local t = setmetatable({}, {__tostring = function() return "T!" end})
print(t, 1, t)
