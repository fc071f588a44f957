local t = {"a", "b", "c", "d"}
print(table.remove(t), #t)
print(table.remove(t, 1), #t, t[1], t[2])
print(table.remove({}), table.remove({}, 0), #t)
local u = {"x"}
print(table.remove(u, 1), #u, table.remove(u), table.remove(u, 1))
print(pcall(table.remove, {1, 2, 3}, 7))
print(table.remove({1, 2, 3}, 4))
print(pcall(table.remove, {}, -1))
