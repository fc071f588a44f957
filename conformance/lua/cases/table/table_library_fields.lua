local names = {"concat", "insert", "move", "pack", "remove", "sort", "unpack"}
for i, k in ipairs(names) do names[i] = k .. ":" .. type(table[k]) end
print(table.concat(names, " "))
