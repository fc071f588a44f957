print(utf8.char(72, 101, 108, 108, 111), utf8.char(), #utf8.char(0x7FF), #utf8.char(0x10FFFF))
print(utf8.char(228, 8364, 0x1F600) == "\u{E4}\u{20AC}\u{1F600}", #utf8.char(0x7FFFFFFF))
print(pcall(utf8.char, -1))
print(pcall(utf8.char, 0x80000000))
