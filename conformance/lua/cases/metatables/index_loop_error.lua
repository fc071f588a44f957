local t = setmetatable({}, {})
getmetatable(t).__index = t
local ok, err = pcall(function() return t.x end)
print(ok, err)
