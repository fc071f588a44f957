local t = {10, 20, 30, x = 1, y = 2, z = 3, [100] = "h"}
local keys = {}
for k in pairs(t) do keys[#keys + 1] = tostring(k) end
table.sort(keys)
print(table.concat(keys, " "))
local n = 0
for k, v in pairs(t) do n = n + 1 end
print(n)
