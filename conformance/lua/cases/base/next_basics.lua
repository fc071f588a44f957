print(next({}))
local t = {"only"}
print(next(t))
print(next(t, 1))
print(pcall(next, {}, "nokey"))
print(pcall(next))
