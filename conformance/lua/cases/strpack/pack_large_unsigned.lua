local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
print(hex(string.pack("<J", -1)), string.unpack("<J", string.pack("<J", -1)))
print(hex(string.pack(">I16", 1)), string.unpack(">I16", string.pack(">I16", 255)))
print(string.unpack("<i16", string.pack("<i16", -2)))
