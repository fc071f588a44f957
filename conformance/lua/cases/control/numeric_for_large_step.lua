for i = 0, math.maxinteger, math.maxinteger // 2 do print(i) end
for i = math.maxinteger, 0, math.mininteger do print(i) end
for i = 1, math.huge do if i > 3 then break end print(i) end
for i = -1, -math.huge, -1 do if i < -2 then break end print(i) end
