-- Table operations objects use: ipairs loops, appends (t[#t + 1] = v and
-- table.insert) into tables with a hash part, integer keys that start in
-- the hash part, keys that are tables, stores through metatables without
-- __newindex, and the same after __index/__newindex arrive, beside rawset
-- and rawget.
local function walk(t)
  local s = {}
  for i, v in ipairs(t) do s[#s + 1] = i .. "=" .. tostring(v) end
  return table.concat(s, ",")
end
local function dump(t, n)
  local s = {}
  for i = 0, n do s[#s + 1] = tostring(rawget(t, i)) end
  return #t .. ":" .. table.concat(s, ",")
end

-- ipairs: plain, with holes, through __index, replaced, on a non-table
put(walk({1, 2, 3}), walk({}), walk({1, nil, 3}), walk({n = 1, 5}))
local proxy = setmetatable({}, {__index = function(t, i) if i <= 3 then return i * 10 end end})
put(walk(proxy))
local grows = {1}
for i, v in ipairs(grows) do if i < 5 then grows[#grows + 1] = v * 2 end end
put(walk(grows))
local shrinks = {1, 2, 3, 4}
for i in ipairs(shrinks) do shrinks[#shrinks] = nil end
put(walk(shrinks))
put(pcall(function() for _ in ipairs(nil) do end end))
put(pcall(function() for _ in ipairs() do end end))
local saved = ipairs
ipairs = function(t) return function(_, i) if i < 2 then return i + 1, "mine" end end, t, 0 end
put(walk({7, 8, 9}))
ipairs = saved
put(walk({7, 8, 9}))

-- appends to tables that have a hash part, with keys after the end there
-- (the length is printed only where it has one border)
local t = {name = "obj"}
t[3] = "c" t[4] = "d" t[2] = "b" t[1] = "a"
put(dump(t, 5))
t[#t + 1] = "e"
table.insert(t, "f")
put(dump(t, 7))
local z = {} z[0] = "zero"
for i = 1, 4 do z[i] = i end
z[#z + 1] = 5 z[7] = 7 z[6] = 6
put(dump(z, 8))
local u = {k = 1} u[2] = 2 u[1] = 1 table.insert(u, 3)
put(dump(u, 4))
put(pcall(table.insert, {k = 1}, nil), pcall(function() local q = {k = 1} q[#q + 1] = nil return #q end))

-- keys that are tables, floats, booleans
local k1, k2 = {}, {}
local keyed = {}
keyed[k1] = "one" keyed[k2] = "two" keyed[2.0] = "float two" keyed[true] = "yes" keyed[1] = "int one"
put(keyed[k1], keyed[k2], keyed[2], keyed[true], keyed[1.0], keyed[{}])
keyed[k1] = nil
put(keyed[k1], keyed[k2], pcall(function() keyed[0 / 0] = 1 end))
put(pcall(function() keyed[nil] = 1 end))

-- integer keys outside the list (negative, sparse, out of order) and table
-- keys: stored, overwritten, removed, migrated by later appends, counted
local sparse = {}
for i = 10, 1, -3 do sparse[i] = i * 2 end
sparse[-1] = "minus" sparse[0] = "zero" sparse[math.maxinteger] = "max" sparse[math.mininteger] = "min"
put(dump(sparse, 10), sparse[-1], sparse[math.maxinteger], sparse[math.mininteger])
sparse[7] = nil sparse[-1] = nil sparse[4] = "four"
put(dump(sparse, 10), sparse[-1], sparse[7])
sparse[2] = 2 sparse[3] = 3 sparse[5] = 5 sparse[6] = 6
put(dump(sparse, 10))
local n = 0
for k, v in pairs(sparse) do n = n + 1 end
put(n, next({}, nil))
local set, members = {}, {}
for i = 1, 40 do members[i] = {i} set[members[i]] = i end
local sum = 0
for i = 1, 40, 2 do set[members[i]] = nil end
for k, v in pairs(set) do sum = sum + v + k[1] end
put(sum, set[members[2]], set[members[3]], set[{}])
local nilv
set[members[2]] = nilv
put(set[members[2]], pcall(function() local q = {} q[nilv] = 1 end))
-- field reads of values that are no tables: errors naming them, strings
-- and numbers through their metatables
local function field(v) return v.len end
local function deep(v) return v.a.b end
local function err(f, v) local ok, e = pcall(f, v) return e end
put(field("abc") == string.len, err(field, nil), err(field, 5), err(field, true))
put(err(field, print), err(field, coroutine.create(print)), err(field, io.stdout))
put(err(deep, {}), err(deep, {a = "s"}), err(deep, {a = {b = 7}}))
local function reader() local up = nil return function() return up.field end end
put(pcall(reader()))
debug.setmetatable(0, {__index = function(n, k) return k .. n end})
put(field(2), (3).name, pcall(field, false))
debug.setmetatable(0, nil)
put(pcall(field, 2))
-- the same stores once a metatable has a say
local seen = {}
local watched = setmetatable({}, {__newindex = function(t, k, v) seen[#seen + 1] = type(k) rawset(t, k, v) end,
                                  __index = function(t, k) return "default" end})
watched[-5] = 1 watched[members[1]] = 2 watched[9] = 3 watched[9] = 4
put(watched[-5], watched[members[1]], watched[9], watched[members[2]], watched[100], table.concat(seen, ","))
local weakset = setmetatable({}, {__mode = "k"})
weakset[{}] = 1 weakset[members[1]] = 2 weakset[-3] = 3
collectgarbage()
local left = {}
for k, v in pairs(weakset) do left[#left + 1] = v end
table.sort(left)
put(table.concat(left, ","))

-- stores through a metatable without __newindex, then with one added later
local Class = {}
Class.__index = Class
local obj = setmetatable({}, Class)
obj.x = 1 obj[1] = "first" obj[2] = "second"
put(obj.x, obj[1], obj[2], #obj, rawget(Class, "x"))
local log = {}
Class.__newindex = function(t, k, v) log[#log + 1] = tostring(k) rawset(t, k, v) end
obj.x = 2 obj.y = 3 obj[3] = "third" obj[1] = "again"
put(obj.x, obj.y, obj[3], obj[1], table.concat(log, ","))
Class.__newindex = nil
obj.z = 4
put(obj.z, table.concat(log, ","))
local sink = {}
setmetatable(obj, {__newindex = sink})
obj.w = 5 obj.x = 6 obj[4] = "fourth"
put(rawget(obj, "w"), sink.w, obj.x, rawget(obj, 4), sink[4])
rawset(obj, "w", "raw")
obj.w = "stored"
put(obj.w, sink.w)
-- setmetatable: an object getting its class, and every other case
local function new(mt) return setmetatable({}, mt) end
local C = {__index = {kind = "c"}}
put(new(C).kind, getmetatable(new(C)) == C, getmetatable(new(nil)))
put(pcall(setmetatable, setmetatable({}, {__metatable = "locked"}), C))
put(pcall(function() return setmetatable({}, 5) end), pcall(function() return setmetatable(5, C) end))
local weak = new({__mode = "k"})
weak[{}] = 1
collectgarbage()
put(next(weak))
local with_gc = {__gc = function() end}
put(getmetatable(new(with_gc)) == with_gc)
local saved_setmetatable = setmetatable
setmetatable = function(t, mt) return "replaced" end
put(new(C))
setmetatable = saved_setmetatable
-- pairs: plain, with __pairs, with a metatable without it, replaced, errors
local function keys(t)
  local s = {}
  for k, v in pairs(t) do s[#s + 1] = tostring(k) .. "=" .. tostring(v) end
  table.sort(s)
  return table.concat(s, ",")
end
put(keys({1, 2, x = 3}), keys({}), keys(setmetatable({a = 1}, {__index = {b = 2}})))
put(keys(setmetatable({}, {__pairs = function(t) return function(_, k) if not k then return 1, "p" end end, t, nil end})))
put(pcall(pairs, nil), pcall(function() for _ in pairs(5) do end end))
local saved_pairs = pairs
pairs = function(t) return next, {only = 1}, nil end
put(keys({z = 26}))
pairs = saved_pairs
-- next from a key of the hash part of tables no traversal has entered
-- (a new table keeps no key order until one does)
local fresh = {a = 1}
put(next(fresh, "a"))
local two = {1, 2, k = "v"}
put(next(two, "k"), select("#", next(two, "k")))
put(pcall(next, {a = 1}, "missing"))
local grown = {x = 1}
grown.y = 2
local seen = 0
local k = next(grown, nil)
while k ~= nil do seen = seen + 1 k = next(grown, k) end
put(seen)
-- setmetatable of a table just made (its guard knows it has no metatable):
-- classes with and without __gc, __mode and __metatable, a constructor
-- whose values call code, and the library's setmetatable replaced
local Cls = {} Cls.__index = Cls
function Cls.describe(o) return "cls " .. tostring(o.x) end
local function make(x) return setmetatable({x = x}, Cls) end
put(make(1):describe(), getmetatable(make(2)) == Cls, make(nil):describe())
local weak = setmetatable({}, {__mode = "k"})
put(getmetatable(weak).__mode)
local finalised = 0
do local g = setmetatable({}, {__gc = function() finalised = finalised + 1 end}) end
collectgarbage() collectgarbage()
put(finalised)
local locked = setmetatable({}, {__metatable = "locked"})
put(getmetatable(locked), pcall(setmetatable, locked, {}))
local function sneaky() return 7 end
put(setmetatable({y = sneaky()}, Cls).y, setmetatable({sneaky()}, Cls)[1])
put(pcall(setmetatable, {}, 1), select("#", setmetatable({}, Cls)))
local real = setmetatable
setmetatable = function(t, m) rawset(t, "mine", true) return real(t, m) end
put(rawget(make(3), "mine"))
setmetatable = real
put(rawget(make(4), "mine"))
-- a constructor's list items stored inline into the table just made:
-- nil items, keys stored before the items, items after fields, and more
-- items than one batch (lengths printed only where there is one border)
local function cells(t, n)
  local s = {}
  for i = 0, n do s[#s + 1] = tostring(rawget(t, i)) end
  return table.concat(s, ",")
end
local function items(a, b, c)
  local t1, t2, t3 = {a, b}, {a, b, c}, {[1] = "one", [2] = "two", a}
  local t4, t5 = {x = 1, a, b}, {a, 2, b, 4, c, 6, a, 8, b}
  return cells(t1, 3) .. " " .. cells(t2, 4) .. " " .. cells(t3, 3) .. " " .. cells(t4, 3) .. " " .. cells(t5, 10)
end
put(items(1, 2, 3))
put(items(1, nil, 3))
put(items(nil, nil, 3))
put(items(nil, 2, nil))
local function lengths(a, b) return #{a, b}, #{a, b, a}, #{x = 1, a, b} end
put(lengths(1, 2))
put(lengths(1, nil))
put(#{1, 2, nil}, #{nil, nil}, #{n = 1}, #{(items(1, 2, 3))})
-- table.remove(t, pos) of the list part's last element (a queue's only
-- one), with nils before it, and positions the library checks
local q = {"a"}
put(table.remove(q, 1), #q, table.remove(q, 1), #q)
local holes = {1, nil, 3}
put(table.remove(holes, 3), #holes, cells(holes, 4))
local drained = {}
local work = {1, 2, 3, 4}
while #work > 0 do drained[#drained + 1] = table.remove(work, 1) end
put(table.concat(drained, ","), #work)
local last = {5, 6, 7}
put(table.remove(last, #last), table.remove(last, #last), #last, cells(last, 3))
put(pcall(table.remove, {1, 2}, 4))
put(table.remove({1, 2}, 3), select("#", table.remove({}, 1)))
local hashed = {1, 2, k = "v"}
put(table.remove(hashed, 2), #hashed, hashed.k)
-- tables made by constructors without LuaTable's __init__: every part
-- starts empty and each table is distinct, whatever is done to it next
local made = {}
for i = 1, 3 do made[i] = {} end
put(made[1] == made[2], rawequal(made[2], made[3]), #made[1], next(made[1]), getmetatable(made[3]))
made[1].k, made[2][1], made[3][2] = "v", "a", "b"
put(made[1].k, made[2].k, made[2][1], #made[2], made[3][2], #made[3] == 0 or #made[3] == 2)
local keyed = {[made[1]] = 1, [made[2]] = 2}
put(keyed[made[1]], keyed[made[2]], keyed[made[3]], keyed[{}])
local weak = setmetatable({}, {__mode = "k"})
weak[{}] = 1
weak[made[1]] = 2
collectgarbage()
local left = 0
for k, v in pairs(weak) do left = left + v end
put(left)
local counted = setmetatable({}, {__len = function() return 9 end, __index = function(t, k) return k end})
put(#counted, counted.x, #{}, next({}, nil), pcall(next, {}, "x"))
local nested = {inner = {deeper = {}}}
nested.inner.deeper[1] = nested
put(nested.inner.deeper[1] == nested, #nested.inner.deeper, (next(nested)))
return transcript()
