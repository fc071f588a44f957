print(string.format("%d %i %d %d", 42, -7, 0, math.mininteger))
print(string.format("[%5d] [%-5d] [%05d] [%+d] [% d] [%+5d]", 42, 42, 42, 42, 42, -42))
print(string.format("%.3d|%5.3d|%-+6d|", 7, 7, 7))
print(string.format("%d", 3.0), string.format("%d", "10"), string.format("%i", -0.0))
