local t = {}
local x = 7
for i = 1, 200 do x = (x * 31 + 11) % 1009; t[i] = x end
table.sort(t)
local ok = true
for i = 2, #t do if t[i - 1] > t[i] then ok = false end end
print(ok, t[1], t[100], t[200])
table.sort(t, function(a, b) return a > b end)
print(t[1], t[200])
