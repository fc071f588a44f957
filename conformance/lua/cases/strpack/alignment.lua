local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
print(hex(string.pack("<!4 b i4", 1, 2)))
print(hex(string.pack("<!8 b d", 1, 0.0)))
print(hex(string.pack("<!2 b Xi2 b", 1, 2)))
print(hex(string.pack("<b x b", 1, 2)))
print(pcall(string.pack, "!3 i4", 1))
print(pcall(string.pack, "!4 i3", 1))
