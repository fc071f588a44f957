local s = "hello \z
           world"
print(s)
print("a\z  b", "c\z
d")
