print(tonumber("10"), tonumber("10.0"), tonumber(" 0x1F "), tonumber("1e1"))
print(tonumber("10a"), tonumber(""), tonumber(" "), tonumber("0x"), tonumber("1 2"))
print(tonumber("inf"), tonumber("nan"), tonumber("- 1"), tonumber("--1"))
