-- getmetatable, rawget and rawset inline where they read or write a
-- table's own fields: getmetatable of a table whose metatable is not
-- protected by __metatable, rawget of a string key, rawset of a string key
-- and a value; other values, protected metatables, other keys, nil values,
-- replaced functions and missing arguments take the general path.
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
-- rawset: past __newindex, into a class whose lookups are cached, nil
-- values and other keys, as a __newindex handler's store.
local log = {}
local Tracked = {}
Tracked.__newindex = function(t, k, v) log[#log + 1] = k rawset(t, k, v) end
Tracked.__index = Tracked
local tr = setmetatable({}, Tracked)
tr.a = 1 tr.a = 2 tr.b = nil tr[1] = "x"
put(table.concat(log, ","), tr.a, tr[1], rawget(tr, "b"), rawset(tr, "c", 3) == tr, tr.c)
local Class = {greet = "hi"}
Class.__index = Class
local inst = setmetatable({}, Class)
for _ = 1, 10 do local _ = inst.greet end
rawset(Class, "greet", "hello")
put(inst.greet, rawset(Class, "greet", nil) == Class, inst.greet)
local r = {}
local key = "k"
for i = 1, 40 do rawset(r, key .. i, i) end
rawset(r, key .. 3, nil)
rawset(r, 5, "five") rawset(r, 1.5, "f") rawset(r, true, "t")
local n = 0
for _ in pairs(r) do n = n + 1 end
put(n, r.k40, r.k3, r[5], r[1.5], r[true])
put(pcall(rawset, r, nil, 1))
put(pcall(function() return rawset(r, 0/0, 1) end))
put(pcall(function() return rawset("s", "k", 1) end))
put(pcall(function() return rawset(r, "k") end))
-- Replaced functions are called.
local real_get, real_raw, real_set = getmetatable, rawget, rawset
getmetatable = function(v) return "mine" end
rawget = function(t, k) return "raw " .. tostring(k) end
rawset = function(t, k, v) return "set " .. tostring(k) end
put(getmetatable(obj), rawget(obj, "own"), rawset(obj, "own", 5), rawget(obj, "own"))
getmetatable, rawget, rawset = real_get, real_raw, real_set
put(getmetatable(obj) == Base, rawget(obj, "own"), rawset(obj, "own", 5) == obj, rawget(obj, "own"))
return transcript()
