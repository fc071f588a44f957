local inner = {}
local mid = setmetatable({}, {__newindex = inner})
local outer = setmetatable({}, {__newindex = mid})
outer.k = "v"
print(rawget(outer, "k"), rawget(mid, "k"), inner.k)
