print(pcall(function() return "abc" + 1 end))
print(pcall(function() return {} + 1 end))
print(pcall(function() return 1 + nil end))
print(pcall(function() return "10" + "x" end))
