print(string.packsize("b"), string.packsize("h"), string.packsize("i"), string.packsize("l"), string.packsize("j"))
print(string.packsize("i1"), string.packsize("i7"), string.packsize("i16"), string.packsize("f"), string.packsize("d"), string.packsize("n"))
print(string.packsize("<i4 i8"), string.packsize("!8 i1 i8"), string.packsize("!4 b i4 b"), string.packsize("c10"))
print(string.packsize("T") == string.packsize("J"), string.packsize("x"), string.packsize("xxi2"))
