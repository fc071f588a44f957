local s = "caf\xC3\xA9 \xFF"
print(#s:match("%a+"), s:find("\xC3"), s:gsub("[\x80-\xFF]", "?"))
print(s:match("[\xC3][\xA9]") == "\xC3\xA9")
