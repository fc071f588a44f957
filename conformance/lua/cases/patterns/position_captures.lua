print(("hello"):match("()ll()"))
print(("hello"):find("()l"))
print(("abc"):gsub("()", "%1"))
print(string.find("abc", "()b()"))
