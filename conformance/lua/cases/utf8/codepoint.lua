local s = "h\u{E9}\u{20AC}"
print(utf8.codepoint(s), utf8.codepoint(s, 2), utf8.codepoint(s, 4), utf8.codepoint(s, 1, -1))
print(utf8.codepoint(s, 1, 0), select("#", utf8.codepoint(s, 1, -1)))
print(pcall(utf8.codepoint, s, 3))
print(pcall(utf8.codepoint, s, 10))
print(pcall(utf8.codepoint, "\xFF"))
