local t = {}
local r = t * 2
