print(string.format("%F", 1.5))
