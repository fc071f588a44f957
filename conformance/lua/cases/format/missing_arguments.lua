print(pcall(string.format, "%d"))
print(pcall(string.format, "%s %s", "a"))
print(pcall(string.format))
print(string.format("no conversions", 1, 2, 3))
