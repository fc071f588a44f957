print(string.format("%w", 1))
