for i = 1, 3.5 do print(i, math.type(i)) end
for i = 3, 0.5, -1 do print(i) end
for i = 1, 2^62 * 4, 2^62 do print(i, math.type(i)) end
