local obj = setmetatable({}, {__name = "Widget"})
print(pcall(math.floor, obj))
print(pcall(string.len, obj))
