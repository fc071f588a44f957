local f, e = load("return 1", "c", "t")
print(type(f), e)
f, e = load("return 1", "c", "b")
print(f, e)
