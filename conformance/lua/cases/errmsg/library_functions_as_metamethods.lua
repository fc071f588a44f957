-- A library function used directly as a metamethod is named after the
-- event in its argument errors, as Lua names the call.
local t = setmetatable({}, {__index = string.rep})
print(pcall(function() return t.x end))
local u = setmetatable({}, {__newindex = string.rep})
print(pcall(function() u.x = 1 end))
local c = setmetatable({}, {__concat = string.rep})
print(pcall(function() return c .. "x" end))
local a = setmetatable({}, {__add = math.floor})
print(pcall(function() return a + 1 end))
local l = setmetatable({}, {__len = string.upper})
print(pcall(function() return #l end))
local r = string.rep
print(pcall(function() return r() end))
print(pcall(function() return string.rep() end))
