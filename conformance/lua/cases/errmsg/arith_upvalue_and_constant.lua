local up = {}
print(pcall(function() return up + 1 end))
print(pcall(function() return 1 + up end))
print(pcall(function() return up .. "x" end))
