print(getmetatable({}), getmetatable(1), getmetatable(print), getmetatable(nil))
local mt = {}
local t = setmetatable({}, mt)
print(getmetatable(t) == mt, setmetatable(t, nil) == t, getmetatable(t))
print(pcall(setmetatable, 1, {}))
print(pcall(setmetatable, {}, 1))
