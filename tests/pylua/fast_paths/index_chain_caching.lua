-- Lookups through __index chains before, at and after the point where the
-- metatable starts caching them (ops.CACHE_AFTER lookups), with every
-- level of the chain written between reads: interpreter scopes made per
-- call, objects with metatables of their own, defaults in a prototype
-- that objects override, and chains whose __index changes kind.

-- Scopes: a fresh table per call chained by __index to its parent's.
local function scope(parent) return setmetatable({}, {__index = parent}) end
local globals = {x = 1, shadowed = "global"}
local log = {}
local function run(depth, parent)
  local s = scope(parent)
  s.depth = depth
  if depth % 2 == 0 then s.shadowed = "level " .. depth end
  if depth < 12 then run(depth + 1, s) end
  log[#log + 1] = s.x .. ":" .. s.shadowed .. ":" .. tostring(s.missing)
  parent.x = (rawget(parent, "x") or 0) + depth       -- writes a level others read through
  log[#log + 1] = s.x .. "/" .. (s.depth or "?")
end
run(1, globals)
put(table.concat(log, " "))

-- One metatable serving n lookups, then its chain changes at each level.
for _, n in ipairs({1, 7, 8, 9, 20}) do
  local Base = {kind = "base", size = 1}
  local Mid = setmetatable({}, {__index = Base})
  local mt = {__index = Mid}
  local o = setmetatable({}, mt)
  local seen = {}
  for i = 1, n do seen[#seen + 1] = o.kind .. o.size end
  Mid.kind = "mid"
  seen[#seen + 1] = o.kind
  Base.size = 2
  seen[#seen + 1] = o.size
  Mid.kind = nil
  seen[#seen + 1] = o.kind
  getmetatable(Mid).__index = function(t, k) return "fn " .. k end
  seen[#seen + 1] = o.kind .. " " .. o.size
  mt.__index = nil
  seen[#seen + 1] = tostring(o.kind)
  mt.__index = Base
  o.size = 3
  seen[#seen + 1] = o.kind .. o.size
  put(n, table.concat(seen, ","))
end

-- Objects with metatables of their own, methods in a shared class that
-- changes while they are used.
local Shape = {}
function Shape.area(self) return self.w * self.h end
local shapes, areas = {}, {}
for i = 1, 12 do
  shapes[i] = setmetatable({w = i, h = 2}, {__index = Shape})
  for _ = 1, i do areas[#areas + 1] = shapes[i]:area() end
  if i == 9 then function Shape.area(self) return -self.w end end
end
put(table.concat(areas, ","))

-- Defaults in a prototype, overridden by some objects, the prototype
-- itself written as they are read.
local Defaults = {speed = 1, name = "anon"}
local Proto = {__index = Defaults}
local total, names = 0, {}
for i = 1, 30 do
  local o = setmetatable(i % 3 == 0 and {speed = i} or {}, Proto)
  total = total + o.speed
  if i % 7 == 0 then Defaults.speed = Defaults.speed + 1 end
  if i == 20 then Defaults.name = nil end
  names[#names + 1] = tostring(o.name)
end
put(total, table.concat(names, " "))
-- A class written while objects read through it, as a scope is: each
-- store that changes a cached answer stops it sharing its cache with new
-- metatables until it has served more lookups.  Objects made before and
-- after each store, directly and through a subclass, read what is there.
local Base = {level = 0, name = "b"}
local Leaf = setmetatable({}, {__index = Base})
function Leaf.describe(self) return self.name .. self.level end
local made, out = {}, {}
for round = 1, 60 do
  local o = setmetatable({}, {__index = round % 2 == 0 and Leaf or Base})
  made[#made + 1] = o
  for _ = 1, round % 9 do out[#out + 1] = o.level end
  if round % 4 == 0 then Base.level = Base.level + 1 end
  if round % 11 == 0 then Base.name = Base.name .. "+" end
  if round % 13 == 0 then rawset(Leaf, "level", round) end
  if round == 40 then Leaf.level = nil end
  local sum, text = 0, {}
  for _, m in ipairs(made) do
    sum = sum + m.level
    if getmetatable(m).__index == Leaf then text[#text + 1] = m:describe() end
  end
  out[#out + 1] = sum .. "=" .. table.concat(text, "")
end
put(table.concat(out, ","))
return transcript()
