local _x, x_1, X, _ = 1, 2, 3, 4
local And, nIL, END = "And", "nIL", "END"
print(_x, x_1, X, _, And, nIL, END)
local t = {["end"] = 1, ["nil"] = 2}
print(t["end"], t["nil"])
