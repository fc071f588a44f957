local t = {}
local old = t
local function h()
  local function f() t = {} ; return 1 end
  t.x = f()
  t[1] = f()
  return t
end
local r = h()
print(old.x, r.x, old[1], r[1])
-- multiple assignment with upvalue table
local u = {}
local oldu = u
local function h2()
  local function f() u = {}; return 1 end
  u.a, u[2] = f(), f()
  return u
end
local r2 = h2()
print(oldu.a, r2.a, oldu[2], r2[2])
-- conflict with upvalue
local w = {}
local oldw = w
local function h3()
  w.k, w = 1, 2
  return w
end
print(h3(), oldw.k)
-- captured local key
local k = 1
local function setk() k = 2; return 9 end
local m = {}
m[k], m.z = setk(), 0
print(m[1], m[2])
-- newindex changing captured table local
local tt = setmetatable({}, {__newindex = function(_, key, v) rawset(_, key, v) end})
local cap = tt
local other = {}
local proxy = setmetatable({}, {__newindex = function(_, key, v) cap = other; rawset(_, key, v) end})
cap[1], proxy.q = 5, 6
print(rawget(tt, 1), other[1])
local function use() return cap end
