print(string.unpack("<i4", string.pack("<i4", 3.0)))
print(pcall(string.pack, "<i4", 3.5))
print(string.unpack("<i4", string.pack("<i4", "12")))
print(pcall(string.pack, "<i4", "12.5"))
