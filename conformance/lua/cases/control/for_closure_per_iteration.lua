local fs = {}
for i = 1, 3 do fs[i] = function() return i end end
print(fs[1](), fs[2](), fs[3]())
local gs = {}
for _, v in ipairs({"a", "b"}) do gs[#gs + 1] = function() return v end end
print(gs[1](), gs[2]())
