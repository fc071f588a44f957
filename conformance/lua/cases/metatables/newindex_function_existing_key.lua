local log = {}
local t = setmetatable({existing = 1}, {__newindex = function(t, k, v) log[#log + 1] = k; rawset(t, k, v * 10) end})
t.existing = 2
t.new = 3
t.new = 4
print(t.existing, t.new, table.concat(log, ","))
