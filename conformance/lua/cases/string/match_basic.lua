print(("hello 123 world"):match("%d+"), ("hello"):match("(h)(e)"), ("abc"):match("x"))
print(("key = val"):match("^(%w+)%s*=%s*(%w+)$"))
print(("2024-01-15"):match("(%d+)-(%d+)-(%d+)"))
print(("abc"):match(".", 2), ("abc"):match(".", -1), ("abc"):match("()b()"))
