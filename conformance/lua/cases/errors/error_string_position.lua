print(pcall(function() error("with position") end))
print(pcall(function() error("no position", 0) end))
print(pcall(function() error(42) end))
print(pcall(function() error("level 1", 1) end))
