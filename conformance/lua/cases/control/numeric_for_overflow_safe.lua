local n = 0
for i = math.maxinteger - 2, math.maxinteger do n = n + 1; print(i) end
print(n)
for i = math.mininteger, math.mininteger + 2 do print(i) end
for i = math.mininteger + 2, math.mininteger, -1 do print(i) end
for i = 1, 0, math.mininteger do print("never") end
