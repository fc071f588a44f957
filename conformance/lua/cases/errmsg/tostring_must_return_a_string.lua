-- luaL_tolstring's error names the line of the Lua code that called the
-- library function converting the value (none when a library function
-- called it); print has written the values before it.  (Found by the
-- campaign.)
local bad = setmetatable({}, {__tostring = function() return {} end})
print(pcall(function() local s = tostring(bad) return s end))
print(pcall(function() return tostring(bad) end))
print(pcall(tostring, bad))
print(pcall(function() return string.format("%d %s", 1, bad) end))
print(pcall(function() print(1, "two", bad, 4) end))
print(pcall(print, bad))
print(pcall(function() return tostring(setmetatable({}, {__tostring = function() return nil end})) end))
print(pcall(function() return tostring(setmetatable({}, {__tostring = function() return 2.5 end})) end))
print(pcall(coroutine.wrap(function() return tostring(bad) end)))
