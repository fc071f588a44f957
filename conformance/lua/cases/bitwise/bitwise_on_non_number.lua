print(pcall(function() return {} & 1 end))
print(pcall(function() return 1 | "abc" end))
print(pcall(function() local s = "x" return ~s end))
print(pcall(function() return nil >> 1 end))
