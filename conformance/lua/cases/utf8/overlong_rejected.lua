print(utf8.len("\xC0\x80"))
print(utf8.len("\xE0\x80\x80"))
print(utf8.len("x\xC1\xBF"))
print(pcall(utf8.codepoint, "\xC0\x80"))
