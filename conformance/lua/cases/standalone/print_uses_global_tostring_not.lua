-- Lua 5.4's print calls luaL_tolstring directly, not the global tostring
tostring = function() return "overridden" end
print(1, "x", nil)
