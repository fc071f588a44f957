print(pcall(function() for i = 1, nil do end end))
print(pcall(function() for i = 1, 2, {} do end end))
print(pcall(function() for i = nil, 2 do end end))
