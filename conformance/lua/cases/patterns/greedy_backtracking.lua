print(("aaab"):match("^(a*)(a)b$"))
print(("xaaay"):match("x(a-)(a*)y"))
print(("1234.5678"):match("^(%d-)(%d*)%.(%d+)$"))
print(("a,b,,c"):gsub(",", ";"), ("a,b,,c"):match("^(.-),(.*)$"))
