table.insert({}, 1, 2, 3)
