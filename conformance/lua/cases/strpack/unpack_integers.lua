print(string.unpack("<i4", "\1\0\0\0"), string.unpack(">i4", "\0\0\0\1"))
print(string.unpack("<i2", "\254\255"), string.unpack("<I2", "\254\255"), string.unpack("b", "\255"), string.unpack("B", "\255"))
print(string.unpack("<i8", string.pack("<i8", math.maxinteger)))
print(string.unpack("<i3", "\255\255\127"), string.unpack("<i3", "\0\0\128"))
