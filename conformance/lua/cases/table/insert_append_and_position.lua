local t = {}
table.insert(t, "a")
table.insert(t, "b")
table.insert(t, 1, "first")
table.insert(t, 3, "middle")
table.insert(t, #t + 1, "last")
print(#t, table.concat(t, " "))
