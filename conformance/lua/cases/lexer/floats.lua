print(3.0, 3.1416, 314.16e-2, 0.31416E1, 34e1, .5, 5., 1e-3)
print(math.type(3.0), math.type(.5), math.type(5.))
print(1e308, 1e-308, 2e-323 > 0)
