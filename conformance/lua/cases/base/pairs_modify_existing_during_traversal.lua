local t = {a = 1, b = 2, c = 3, d = 4}
for k, v in pairs(t) do t[k] = v * 10 end
for k, v in pairs(t) do if k == "b" then t[k] = nil end end
local keys = {}
for k, v in pairs(t) do keys[#keys + 1] = k .. "=" .. v end
table.sort(keys)
print(table.concat(keys, " "))
