print(-0.0, 0.0, 0.0 * -1, -0.0 + 0, 0 * -1.0, -0.0 == 0.0)
print(1 / -0.0, 1 / 0.0, math.type(-0.0), -0 == 0, math.type(-0))
print(string.format("%g %.1f %d", -0.0, -0.0, 0))
