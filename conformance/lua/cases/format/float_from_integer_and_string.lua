print(string.format("%.1f", 3), string.format("%.3f", "2.5"), string.format("%g", 2^63))
print(string.format("%5.1f", math.maxinteger), string.format("%.0f", 0.5), string.format("%.0f", 1.5))
