print(pcall(math.floor, nil))
print(pcall(setmetatable, nil, {}))
print(pcall(rawlen))
print(pcall(next, nil))
