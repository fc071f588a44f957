local s = "a\0b\0c"
print(#s, s:byte(2), s:find("\0", 1, true), s:find("%z"), s:upper() == "A\0B\0C")
print(s:gsub("\0", "."), s:rep(2, "\0"):len(), ("%s"):format(s) == s)
