print(pcall(function() return {} < 1 end))
print(pcall(function() return "x" <= {} end))
print(pcall(function() return nil >= nil end))
print(pcall(function() return 1 < "x" end))
