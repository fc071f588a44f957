print(string.format("%u %u", 42, 0))
