print(pcall(function() for i = 1, 10, 0 do end end))
print(pcall(function() for i = 1.0, 10, 0.0 do end end))
for i = 1, 10, 0 do print(i) end
