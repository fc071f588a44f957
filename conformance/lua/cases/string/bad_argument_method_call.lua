local s = "abc"
print(pcall(function() return s:sub({}) end))
print(pcall(function() return s:rep() end))
print(pcall(function() return ("x").upper() end))
print(pcall(function() return s:find({}) end))
