print(pcall(string.format, "%q", {}))
print(pcall(string.format, "%q", print))
print(pcall(string.format, "%10q", "x"))
