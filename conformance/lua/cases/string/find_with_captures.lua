print(("key=value"):find("(%w+)=(%w+)"))
print(("  x"):find("()x()"))
print(("abc"):find("b()"))
