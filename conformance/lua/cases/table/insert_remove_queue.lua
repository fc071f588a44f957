local q = {}
for i = 1, 5 do table.insert(q, i) end
local out = {}
while #q > 0 do out[#out + 1] = table.remove(q, 1) end
print(table.concat(out, " "), #q)
