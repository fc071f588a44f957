print(string.format("%f %f", math.huge, -math.huge))
print(string.format("%e %g %.1f", math.huge, -math.huge, math.huge))
print(string.format("%5.1f|%-8g|", 1/0, -1/0))
