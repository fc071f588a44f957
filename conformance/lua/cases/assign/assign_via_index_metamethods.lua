local log = {}
local t = setmetatable({}, {__newindex = function(t, k, v) log[#log + 1] = k .. "=" .. tostring(v); rawset(t, k, v) end})
t.a, t.b = 1, 2
table.sort(log)
print(table.concat(log, " "), t.a, t.b)
