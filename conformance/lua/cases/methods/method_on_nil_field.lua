local obj = {}
print(pcall(function() return obj:missing() end))
obj:missing()
