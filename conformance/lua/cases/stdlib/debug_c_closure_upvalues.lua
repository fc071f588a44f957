-- A C closure's upvalues are named "" (string.gmatch's iterator keeps its
-- subject); plain C functions have none.
local iter = string.gmatch("key=value", "%w+")
local info = debug.getinfo(iter, "u")
print(info.nups > 0, info.isvararg, info.nparams)
print(debug.getupvalue(iter, 1))
print(debug.getinfo(print, "u").nups, debug.getupvalue(print, 1))
print(iter(), iter(), iter())
