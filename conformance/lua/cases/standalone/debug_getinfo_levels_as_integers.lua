-- debug.getinfo takes anything but a function as a level, as
-- luaL_checkinteger takes it (a numeric string too); a level out of range
-- gives nil before the options are checked.
print(pcall(debug.getinfo, "x"))
print(select("#", pcall(debug.getinfo, "1")), (pcall(debug.getinfo, "1")), type(select(2, pcall(debug.getinfo, "1"))))
print(pcall(debug.getinfo, {}))
print(pcall(debug.getinfo))
print(pcall(debug.getinfo, 1.5))
print(pcall(debug.getinfo, 100, "q"))
print(pcall(debug.getinfo, 1, "q"))
print(pcall(debug.getinfo, print, "q"))
print(pcall(debug.getinfo, 1, ">S"))
print(debug.getinfo(1, "l").currentline, debug.getinfo("1", "S").short_src)
print(debug.getinfo(coroutine.wrap(function() end)).what)
print(pcall(debug.getinfo, coroutine.create(function() end), "x"))
print(pcall(debug.getinfo, coroutine.create(function() end), 0, "l"))
