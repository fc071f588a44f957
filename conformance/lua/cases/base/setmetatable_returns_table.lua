local t = {}
print(setmetatable(t, {}) == t)
print(pcall(setmetatable, t))
