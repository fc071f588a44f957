local fs = {}
local k = 0
repeat
  k = k + 1
  local v = k * 2
  fs[k] = function() return v end
until v >= 6
print(k, fs[1](), fs[2](), fs[3]())
