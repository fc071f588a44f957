local big = "\xF4\x90\x80\x80"
print(utf8.len(big), utf8.len(big, 1, -1, true))
print(pcall(utf8.codepoint, big))
print(utf8.codepoint(big, 1, 1, true))
local surrogate = "\xED\xA0\x80"
print(utf8.len(surrogate), utf8.len(surrogate, 1, -1, true))
for p, c in utf8.codes(utf8.char(0x7FFFFFFF), true) do print(p, c) end
print(utf8.char(0x110000) == big)
