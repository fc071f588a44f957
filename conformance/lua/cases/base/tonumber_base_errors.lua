print(pcall(tonumber, "10", 1))
print(pcall(tonumber, "10", 37))
print(pcall(tonumber, 10, 16))
print(pcall(tonumber, "10", 2.5))
