print(("  indented"):gsub("^%s*", ""))
print(("a-b-c"):gsub("-", "+", 1))
print(("one two"):gsub("(%w+)", "<%1>"))
print(("abc"):gsub(".", {a = 1, b = true}))
