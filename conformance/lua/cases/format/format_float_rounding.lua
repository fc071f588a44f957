print(string.format("%.2f %.2f %.2f %.2f", 2.675, 1.005, 0.125, 0.375))
print(string.format("%.3g %.3g %.10g", 2.5e-5, 123456, 1/3))
print(string.format("%.14g %.17g", 0.1, 0.1))
print(string.format("%5.3s|%.0s|", "abcdef", "abc"))
