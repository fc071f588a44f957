local fmt = "<i4 d z s1 B j"
local data = string.pack(fmt, -7, 2.25, "zero-term", "len", 200, math.mininteger)
print(#data, string.packsize("<i4 d") + 10 + 4 + 1 + 8)
print(string.unpack(fmt, data))
