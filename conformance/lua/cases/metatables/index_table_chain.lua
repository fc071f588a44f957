local A = {a = "A.a"}
local B = setmetatable({b = "B.b"}, {__index = A})
local C = setmetatable({c = "C.c"}, {__index = B})
print(C.a, C.b, C.c, C.d, rawget(C, "a"))
