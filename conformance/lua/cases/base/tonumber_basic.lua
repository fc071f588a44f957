print(tonumber(10), tonumber("10"), tonumber("  10  "), tonumber("10.5"), tonumber("-0x10"))
print(tonumber("1e3"), tonumber(".5"), tonumber("5."), tonumber("0x1.8p1"), tonumber("\t\n12\n"))
print(tonumber(nil), tonumber(true), tonumber({}), tonumber("x"), tonumber("1e"))
print(pcall(tonumber))
