print(pcall(function() error(3.5) end))
print(pcall(function() error(10, 2) end))
