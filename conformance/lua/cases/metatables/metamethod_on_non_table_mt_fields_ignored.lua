local t = setmetatable({}, {__index = 1})
print(pcall(function() return t.x end))
