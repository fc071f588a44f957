local t = setmetatable({}, {__name = "MyType"})
print((tostring(t):gsub("0x%x+", "ADDR"):gsub(": [%x]+$", ": ADDR")))
print(pcall(string.rep, t))
print(pcall(function() return t + 1 end))
