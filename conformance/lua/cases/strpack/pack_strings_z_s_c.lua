local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
print(hex(string.pack("z", "hi")), hex(string.pack("<s1", "abc")), hex(string.pack("<s2", "ab")))
print(hex(string.pack("c5", "abc")), hex(string.pack("c2", "ab")))
print(string.unpack("z", "hello\0world"), string.unpack("<s1", "\3abcdef"), string.unpack("c3", "xyzw"))
print(#string.pack("s", "x"), string.unpack("s", string.pack("s", "roundtrip")))
