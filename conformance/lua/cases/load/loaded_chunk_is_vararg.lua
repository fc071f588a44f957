local f = load("return select('#', ...), ...")
print(f("a", nil, "c"))
