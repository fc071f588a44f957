local words = {"banana", "Apple", "apple", "cherry", "10", "9", "_x", "a b"}
table.sort(words)
print(table.concat(words, ","))
