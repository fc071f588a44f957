print(table.concat({{}}))
