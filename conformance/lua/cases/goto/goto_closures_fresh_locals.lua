local fs = {}
local i = 1
::again::
local x = i * 10
fs[i] = function() return x end
i = i + 1
if i <= 3 then goto again end
print(fs[1](), fs[2](), fs[3]())
