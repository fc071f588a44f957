print(pcall(utf8.len))
print(pcall(utf8.char, "x"))
print(pcall(utf8.offset, "abc"))
print(pcall(utf8.codes, nil))
