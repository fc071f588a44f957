local t = {}
t[1] = "one"; t[1.0] = "float one"; t[2^53] = "big"
print(t[1], #t, t[9007199254740992])
for k, v in pairs({[2.0] = "x"}) do print(k, math.type(k), v) end
