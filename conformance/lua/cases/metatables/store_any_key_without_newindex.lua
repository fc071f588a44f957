-- A store under a key of any type into a table whose metatable has no
-- __newindex is a raw store; one with __newindex calls it for new keys.
local log = {}
local proxy = setmetatable({}, {__newindex = function(t, k, v) log[#log + 1] = tostring(k) .. "=" .. tostring(v); rawset(t, k, v) end})
local plain = setmetatable({}, {__index = {a = 1}})
local weak = setmetatable({}, {__mode = "k"})
for i, k in ipairs({"x", 1, 2.0, true, "y"}) do proxy[k] = i; plain[k] = i; weak[k] = i end
proxy.x = 10; proxy[1] = 11
print(table.concat(log, " "))
print(plain.x, plain[1], plain[2], plain[true], plain.a, #plain)
local mt = getmetatable(plain)
mt.__newindex = function(t, k, v) rawset(t, k, v * 100) end
for _, k in ipairs({"z", 5}) do plain[k] = 2 end
print(plain.z, plain[5], plain.x)
local keys = 0 for k in pairs(weak) do keys = keys + 1 end print(keys)
