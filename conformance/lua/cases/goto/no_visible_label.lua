print(load("goto nowhere"))
print(load("do ::inner:: end goto inner"))
print(load("local x\ngoto l1\n"))
