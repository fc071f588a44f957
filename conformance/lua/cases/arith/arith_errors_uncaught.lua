local t = {}
local x = t + 1
