print("10" == 10, 10 == "10", "1" ~= 1)
local t = {}
t[1] = "int"; t["1"] = "str"
print(t[1], t["1"], t[1.0])
