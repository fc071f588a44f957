table.insert(nil, "x")
