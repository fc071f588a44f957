print(string.format("%c%c%c", 76, 117, 97))
print(string.format("[%5c] [%-3c]", 65, 66))
print(#string.format("%c", 0), string.format("%c", 255) == "\255")
