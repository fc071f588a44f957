local mt = {__lt = function(a, b) return a.k < b.k end}
local t = {}
for _, k in ipairs({4, 1, 3, 2}) do t[#t + 1] = setmetatable({k = k}, mt) end
table.sort(t)
for i = 1, #t do t[i] = t[i].k end
print(table.concat(t, ","))
