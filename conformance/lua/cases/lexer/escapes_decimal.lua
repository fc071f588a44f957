print("\65\066\0671", "\x41\x62\x7A", "\u{48}\u{49}")
print(#"\0\00\000", ("\0001"):byte(1, -1))
print("\u{7FF}" == "\xDF\xBF", #"\u{10FFFF}", #"\u{7FFFFFFF}")
