print(pcall(function() return string.foo("x") end))
print(pcall(function() local m = math; return m.bar(1) end))
