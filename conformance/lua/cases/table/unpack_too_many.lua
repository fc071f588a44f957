print(pcall(table.unpack, {}, math.mininteger, math.maxinteger))
