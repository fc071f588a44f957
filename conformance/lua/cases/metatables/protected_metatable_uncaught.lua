local t = setmetatable({}, {__metatable = 1})
setmetatable(t, {})
