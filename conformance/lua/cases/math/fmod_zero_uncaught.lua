print(math.fmod(10, 3))
print(math.fmod(10, 0))
