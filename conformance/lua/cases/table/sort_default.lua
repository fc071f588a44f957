local t = {5, 2, 8, 1, 9, 3}
table.sort(t)
print(table.concat(t, " "))
local s = {"pear", "apple", "fig", "banana"}
table.sort(s)
print(table.concat(s, " "))
local f = {3.5, -1, 2, 0.5, 10}
table.sort(f)
print(table.concat(f, " "))
