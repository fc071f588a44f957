local a = {1, 2, 3, 4, 5}
table.move(a, 2, 4, 1)
print(table.concat(a, ","))
a = {1, 2, 3, 4, 5}
table.move(a, 1, 3, 3)
print(table.concat(a, ","))
local b = table.move({1, 2, 3}, 1, 3, 2, {"x"})
print(table.concat(b, ","))
print(#table.move({1, 2}, 1, 0, 5), table.move({}, 1, 0, 1) ~= nil)
print(pcall(table.move, {}, 1, 2))
print(pcall(table.move, {1}, 1, 1, 1, 5))
