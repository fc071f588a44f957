print(("a.b"):match("a.b"), ("axb"):match("a%.b"), ("a.b"):match("a%.b"))
print(("50%"):match("%d+%%"), ("a+b"):match("a%+b"), ("(x)"):match("%((.)%)"))
print(("\n"):match("."), #("\0"):match("."))
