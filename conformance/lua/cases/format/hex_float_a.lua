print(string.format("%a %a %a %a", 1.0, 0.5, 2.0, -1.5))
print(string.format("%A %.2a", 255.5, 1.0))
