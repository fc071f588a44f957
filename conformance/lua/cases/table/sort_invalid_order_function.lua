local t = {}
for i = 1, 20 do t[i] = (i * 7) % 20 end
print(pcall(table.sort, t, function(a, b) return true end))
