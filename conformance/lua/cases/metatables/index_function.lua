local calls = 0
local t = setmetatable({x = 1}, {__index = function(t, k) calls = calls + 1; return k .. "!" end})
print(t.x, t.y, t[1], calls)
