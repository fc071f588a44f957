local t = {5, 2, 8, 1, 9, 3}
table.sort(t, function(a, b) return a > b end)
print(table.concat(t, " "))
local people = {{n = "bob", a = 30}, {n = "al", a = 25}, {n = "cy", a = 35}}
table.sort(people, function(x, y) return x.a < y.a end)
for _, p in ipairs(people) do print(p.n, p.a) end
