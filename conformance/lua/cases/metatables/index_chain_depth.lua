local base = {deep = "found"}
local t = base
for i = 1, 50 do t = setmetatable({}, {__index = t}) end
print(t.deep, t.missing)
