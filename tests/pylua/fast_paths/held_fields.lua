-- Field reads of keys the chunk stores non-nil, never tests and never calls
-- as methods (facts.held_fields: x, y, name, label, len, write, w, deep),
-- which translated code reads by subscript under try: the key present, absent
-- from a plain table, absent with __index a table (one and two classes up),
-- a function (yielding inside a coroutine) or a loop, removed by rawset and by
-- a computed key, and receivers that are no tables (strings, whose metatable
-- answers, numbers, booleans, nil, a file: errors naming the variable),
-- and fields of globals and globals, which are read so whatever the chunk
-- stores.
local P = {x = 1, y = 2}
local name, label, len, write, w, deep = "name", "label", "len", "write", "w", "deep"
local function pair(t) return tostring(t.x) .. "," .. tostring(t.y) end
put(pair(P), pair({x = 3}), pair({}))

local Base = {} Base.__index = Base
Base.label = "base label"
Base.deep = "deep value"
local Mid = setmetatable({}, Base) Mid.__index = Mid
Mid.name = "mid name"
local o = setmetatable({x = 10, name = "own"}, Mid)
local function show(t) return tostring(t.name) .. "|" .. tostring(t.label) .. "|" .. tostring(t.deep) .. "|" .. tostring(t.x) end
put(show(o))
rawset(o, "name", nil)
put(show(o))
o[name] = "again"
put(show(o))
o[name] = nil
Mid[name] = nil
put(show(o))
Base.label = "changed"
put(show(o))

-- Reads in a loop while the table and its classes change under it.
local seen = {}
local p = setmetatable({x = 1}, Mid)
for i = 1, 6 do
  seen[#seen + 1] = tostring(p.x) .. "/" .. tostring(p.label) .. "/" .. tostring(p.y)
  if i == 2 then p[("x")] = nil end
  if i == 3 then Base.y = "from base" end
  if i == 4 then rawset(p, "y", "own y") end
  if i == 5 then setmetatable(p, nil) end
end
put(table.concat(seen, " "))

-- __index functions, counted, and yielding when run in a coroutine.
local calls = 0
local f = setmetatable({}, {__index = function(t, k)
  calls = calls + 1
  if coroutine.isyieldable() then coroutine.yield() end
  return k .. "?"
end})
local function fx()
  local s = {}
  for i = 1, 3 do s[#s + 1] = f.x .. f.name end
  return table.concat(s, ",")
end
local co = coroutine.wrap(fx)
local r repeat r = co() until r
put(r, calls)

-- An __index loop is reported.
local loop = setmetatable({}, {})
getmetatable(loop).__index = loop
put(pcall(function() return loop.x end))
local a = setmetatable({}, {}) local b = setmetatable({}, {__index = a})
getmetatable(a).__index = b
put(pcall(function() return a.y end))

-- Receivers that are no tables.
local s = "text"
put(s.x, s.len == string.len, type(s.len), ("abc").len("abcd"))
local n, t, z = 5, true, nil
put(pcall(function() return n.x end))
put(pcall(function() return t.name end))
put(pcall(function() return z.y end))
put(pcall(function() return o.nothing.x end))
put(type(io.stdout.write), io.stdout.x)
local u = {w = io.stdout, write = 1, len = 0}
put(u.w.x, type(u.w.write), u.write, u.len)

-- A miss decides the line a later division by zero names.
local ok, msg = pcall(function(t, d)
  local y = t.x
  return 1 // d
end, {}, 0)
put(ok, msg)
put(pcall(function(t, d)
  local y = t.x
  return 1 // d
end, setmetatable({}, {__index = Base}), 0))

-- Fields of globals (libraries, modules): present, absent, behind
-- __index, and globals that are no tables.
put(type(table.insert), math.nothing, string.format("%d", 7))
Module = setmetatable({f = 1}, {__index = function(t, k) return k .. "!" end})
put(Module.f, Module.g)
put(pcall(function() return print.x end))
put(pcall(function() return undefined_global.x end))
Module = "a string"
put(Module.len == string.len, Module.g)

-- Many objects, some lacking the field.
local total = 0
for i = 1, 200 do
  local obj = i % 7 == 0 and setmetatable({}, {__index = {x = 1000}}) or {x = i}
  total = total + obj.x
end
put(total)
-- Flags stored false (held though tested for truth): present, true, false,
-- missing from some objects (a wrong guess), behind a class, and booleans
-- stored through registers (no nil test).
local Flag = {}
Flag.__index = Flag
Flag.busy = "class"
local flags = {}
for i = 1, 12 do
  local f = i % 4 == 0 and setmetatable({}, Flag) or i % 3 == 0 and {} or {busy = false}
  if i % 2 == 0 then f.busy = i > 6 end
  local on, off = true, i > 100
  f.same, f.less = f == flags, setmetatable({}, {__lt = function() return 0 end}) < f
  if i == 5 then f.busy, f.other = on, off end
  flags[#flags + 1] = tostring(f.busy) .. (f.busy and "+" or "-") .. tostring(not f.busy) .. tostring(f.other)
    .. tostring(f.same) .. tostring(f.less)
end
put(table.concat(flags, " "))
-- Globals themselves (the environment's dict subscripted): present, removed
-- through a computed key, behind the environment's __index, in an
-- environment that is no table.
Counter = 0
local seen_g = {}
for i = 1, 4 do
  seen_g[#seen_g + 1] = tostring(Counter)
  if i == 2 then _G[("Counter")] = nil end
  if i == 3 then setmetatable(_G, {__index = function(_, k) return "env " .. k end}) end
end
put(table.concat(seen_g, " "), Missing_global)
setmetatable(_G, nil)
put(load("return Some, type", "=env", "t", {Some = 1, type = 2})())
put(pcall(load("return Some", "=number env", "t", 5)))
put(pcall(load("return Some", "=nil env", "t", nil)))
return transcript()
