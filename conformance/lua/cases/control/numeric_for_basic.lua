for i = 1, 3 do print(i) end
for i = 3, 1, -1 do print(i) end
for i = 1, 0 do print("never") end
for i = 1, 10, 4 do print(i, math.type(i)) end
