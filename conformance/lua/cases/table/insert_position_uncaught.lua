local t = {1, 2, 3}
table.insert(t, 10, "x")
