local function many(n) local t = {} for i = 1, n do t[i] = i end return table.unpack(t) end
print(select("#", many(200)))
print((select(150, many(200))))
local t = {many(250)}
print(#t, t[250])
