local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
print(hex(string.pack("<i4", 1)), hex(string.pack(">i4", 1)), hex(string.pack("=i2", 0x0102) == string.pack("<i2", 0x0102) and "" or "x"))
print(hex(string.pack("<i2", -2)), hex(string.pack(">I2", 65535)), hex(string.pack("<i8", math.mininteger)))
print(hex(string.pack("<b B h H", -1, 255, -2, 65534)))
print(hex(string.pack("<i3 I5", -1, 2^32 | 0)))
