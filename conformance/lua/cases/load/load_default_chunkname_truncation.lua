print(load("x = = 1 -- a rather long source line that goes on and on and on and on"))
print(load("\nx = = 1"))
print(load("first line\nsecond line"))
