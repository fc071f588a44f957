print(("a b"):gsub(" ", "%%20"))
print(("x"):gsub("x", "%%%%"))
print(("path/to/file"):gsub("/", "\\"))
