local t = setmetatable({}, {__call = 42})
print(pcall(t))
