local vals = {3, 2.5, -1, 2^53, math.maxinteger, -math.huge, 0, -0.5, math.mininteger}
table.sort(vals)
for i, v in ipairs(vals) do print(i, v, math.type(v)) end
