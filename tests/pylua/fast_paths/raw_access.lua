-- getmetatable and rawget inline where they read a table's own fields:
-- getmetatable of a table whose metatable is not protected by
-- __metatable, rawget of a string key; other values, protected
-- metatables, other keys, replaced functions and missing arguments take
-- the general path.
local Base = {kind = "base"}
Base.__index = Base
local obj = setmetatable({own = 1}, Base)
local guarded = setmetatable({}, {__metatable = "locked", __index = Base})
local plain = {x = 1, [1] = "one", [2.0] = "two", [true] = "yes"}
put(getmetatable(obj) == Base, getmetatable(plain), getmetatable(guarded), getmetatable(Base))
put(getmetatable("s").__index == string, getmetatable(1), getmetatable(nil), getmetatable(print))
put(rawget(obj, "own"), rawget(obj, "kind"), obj.kind, rawget(guarded, "kind"), rawget(plain, "x"))
put(rawget(plain, 1), rawget(plain, 2), rawget(plain, true), rawget(plain, "missing"), rawget(plain, nil))
local key = "x"
put(rawget(plain, key), rawget(plain, key .. ""), rawget(plain, 1.0), rawget(plain, 3 - 1))
put(pcall(rawget, "s", "len"))
put(pcall(function() return rawget("s", "len") end))
put(pcall(function() return rawget(plain) end))
put(pcall(function() return getmetatable() end))
-- The walk an interpreter's assignment makes up its scopes.
local scopes = setmetatable({}, {__index = setmetatable({depth = 2}, {__index = {depth = 1, top = true}})})
local s, hops = scopes, 0
while rawget(s, "top") == nil do s = getmetatable(s).__index hops = hops + 1 end
put(hops, s.depth, rawget(s, "top"))
-- A metatable whose __metatable field appears and goes away.
local mt = {}
local o = setmetatable({}, mt)
for i = 1, 4 do
  if i == 2 then mt.__metatable = false end
  if i == 4 then mt.__metatable = nil end
  put(i, getmetatable(o) == mt, tostring(getmetatable(o)) == "false")
end
-- Replaced functions are called.
local real_get, real_raw = getmetatable, rawget
getmetatable = function(v) return "mine" end
rawget = function(t, k) return "raw " .. tostring(k) end
put(getmetatable(obj), rawget(obj, "own"))
getmetatable, rawget = real_get, real_raw
put(getmetatable(obj) == Base, rawget(obj, "own"))
return transcript()
