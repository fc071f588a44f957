local ok, e = pcall(error, "line one\nline two", 0)
print(ok, e)
