-- numeric for accepts numeric strings (they are converted like tonumber)
for i = "1", 2 do print(i, math.type(i)) end
for i = 1, "2" do print(i, math.type(i)) end
for i = 1, 2, "1" do print(i, math.type(i)) end
print(pcall(function() for i = "x", 2 do end end))
