print(nil and 1, false and 1, 0 and 1, "" and "yes", 1 and nil)
print(nil or "d", false or nil, 0 or 1, nil or false)
print(not nil, not 0, not "", not not {})
print(1 and 2 or 3, nil and 2 or 3, false or nil and 1)
