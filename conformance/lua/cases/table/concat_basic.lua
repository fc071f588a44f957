print(table.concat({1, 2, 3}), table.concat({1, 2, 3}, ", "), table.concat({}, "x"))
print(table.concat({"a", "b", "c"}, "-", 2), table.concat({"a", "b", "c"}, "-", 2, 3), table.concat({"a", "b"}, "-", 3))
print(table.concat({1.5, "x", 2}, " "), table.concat({"a"}, ", ", 1, 1), table.concat({[1] = "x", [3] = "z"}, "", 3, 3))
