local fs = {}
local shared = 0
for i = 1, 3 do fs[i] = function() shared = shared + i; return shared end end
print(fs[1](), fs[2](), fs[3](), shared)
