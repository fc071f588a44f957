string.unknown.x = 1
