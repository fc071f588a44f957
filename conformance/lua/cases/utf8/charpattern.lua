print(utf8.charpattern == "[\0-\x7F\xC2-\xFD][\x80-\xBF]*")
local n = 0
for c in ("h\u{E9}llo \u{4E16}"):gmatch(utf8.charpattern) do n = n + 1 end
print(n)
