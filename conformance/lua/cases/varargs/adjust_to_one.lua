local function three() return 1, 2, 3 end
local a, b, c, d = three()
print(a, b, c, d)
print((three()))
local t = {three(), three()}
print(#t, t[1], t[2], t[4])
print(three(), "end")
print("start", three())
