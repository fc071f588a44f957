local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
print(hex(string.pack(">d", 1.5)), hex(string.pack("<f", -2.0)), hex(string.pack(">n", 0.1)))
print(string.unpack(">d", string.pack(">d", 1/3)) == 1/3, string.unpack("<f", string.pack("<f", 0.5)))
print(string.unpack("<f", string.pack("<f", 0.1)) == 0.1, string.unpack("d", string.pack("d", math.huge)))
