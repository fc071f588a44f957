print(("aaa"):gsub("^a", "b"))
print(("hello hello"):gsub("^hello", "bye"))
print(("abc"):gsub("$", "!"))
print(("abc"):gsub("^", ">"))
