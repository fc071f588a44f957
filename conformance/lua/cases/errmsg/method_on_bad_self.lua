-- luaL_argerror: an error in a method's self argument names the method and what was expected
local t = {rep = string.rep, upper = string.upper, len = string.len, sub = string.sub}
print(pcall(function() return t:rep(2) end))
print(pcall(function() return t:upper() end))
print(pcall(function() return t:sub(1) end))
print(pcall(function() return t.rep(t, 2) end))
local u = setmetatable({}, {__index = string})
print(pcall(function() return u:upper() end))
print(pcall(function() return string.rep({}, 2) end))
