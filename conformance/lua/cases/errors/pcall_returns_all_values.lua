print(pcall(function() return 1, 2, 3 end))
print(pcall(function() end))
print(select("#", pcall(function() return nil, nil end)))
