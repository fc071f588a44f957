print(5.5 % 2, -5.5 % 2, 5.5 % -2, -5.5 % -2)
print(math.fmod(5.5, 2), math.fmod(-5.5, 2), math.fmod(5.5, -2), math.fmod(-5.5, -2))
print(1 % -0.5 == -0.0, 0.0 % 1)
