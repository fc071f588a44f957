local log = {}
local proxy = setmetatable({}, {
  __index = function(_, k) return ({"a", "b", "c"})[k] end,
  __len = function() return 3 end,
})
print(table.concat(proxy, ","), table.unpack(proxy))
local sink = setmetatable({}, {__newindex = function(t, k, v) log[#log + 1] = k .. "=" .. v; rawset(t, k, v) end})
table.insert(sink, "x")
print(table.concat(log, " "))
