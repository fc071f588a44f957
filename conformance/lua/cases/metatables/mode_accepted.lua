local weak = setmetatable({}, {__mode = "k"})
local key = {}
weak[key] = "value"
print(weak[key], getmetatable(weak).__mode)
local wv = setmetatable({}, {__mode = "v"})
wv[1] = "strings are not collected"
print(wv[1])
