print(("(x)"):match("%(x%)"))
print(("(x)"):match("x)"))
