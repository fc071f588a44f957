-- '<=' through '__lt' (LUA_COMPAT_LT_LE): the traceback names the frame metamethod 'le'
local a = setmetatable({}, {__lt = function() error("in") end})
print(select(2, xpcall(function() return a <= {} end, debug.traceback)))
