local function two() return "x", "y" end
print((two()))
local t = {(two())}
print(#t)
print(select("#", (two())))
