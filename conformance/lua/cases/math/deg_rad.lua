print(math.deg(math.pi), math.rad(180) == math.pi, math.deg(0), math.rad(90) == math.pi / 2)
print(string.format("%.10f %.10f", math.deg(1), math.rad(1)))
