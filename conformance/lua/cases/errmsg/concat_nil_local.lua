local s
local r = "prefix" .. s
