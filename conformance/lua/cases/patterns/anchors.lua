print(("hello"):match("^h"), ("hello"):match("^e"), ("hello"):match("o$"), ("hello"):match("l$"))
print(("hello"):match("^hello$"), ("a^b"):match("a^b"), ("a$b"):match("a$b"), ("$"):match("^$$"))
print(("hello"):find("^l", 3), ("hello"):find("^l", 4), ("hello"):find("^", 6), ("hello"):find("^", 7))
