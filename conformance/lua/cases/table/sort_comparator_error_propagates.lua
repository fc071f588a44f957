print(pcall(table.sort, {3, 2, 1}, function(a, b) error("cmp failed") end))
