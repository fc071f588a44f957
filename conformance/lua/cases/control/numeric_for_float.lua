for x = 0, 1, 0.25 do print(x) end
for x = 1.0, 3 do print(x, math.type(x)) end
for x = 1, 2, 0.5 do print(x) end
