-- Field reads of table parameters (self) in their guarded bodies: fields
-- present, nil, found through __index, changed, removed, stored by rawset
-- and by a callee, the parameter becoming a class (its hash part replaced
-- by a ClassHash) mid-function, replaced by debug.setlocal, and a coroutine
-- changing it while suspended.
local Base = {} Base.__index = Base
Base.kind = "base"
function Base:describe()
  local a = self.name
  local b = self.kind
  local c = self.missing
  return tostring(a) .. "/" .. tostring(b) .. "/" .. tostring(c)
end
local o = setmetatable({name = "o"}, Base)
put(o:describe())
o.kind = "own"
put(o:describe())
o.kind = nil
Base.missing = "inherited"
put(o:describe())
setmetatable(o, {__index = function(t, k) return k .. "!" end})
put(Base.describe(o))

-- reads in a loop, with writes through the table, rawset and a callee
local function bump(t, k) t[k] = (t[k] or 0) + 100 end
local function loop(t)
  local s = {}
  for i = 1, 3 do
    s[#s + 1] = tostring(t.a) .. ":" .. tostring(t.b)
    t.a = t.a + 1
    rawset(t, "b", i)
    bump(t, "a")
    if i == 2 then t.b = nil end
  end
  return table.concat(s, " ")
end
put(loop({a = 1}))
put(pcall(loop, {}))

-- the parameter becomes a class while the function runs: its hash part is
-- replaced, and what is read afterwards must be what it holds
local function class_of(self, v)
  local before = self.v
  for i = 1, 2 do before = before .. self.v end
  self.__index = self
  local obj = setmetatable({}, self)
  local seen = obj.v                   -- the lookup converts self's hash part
  self.v = v
  local after = self.v
  rawset(self, "w", "w" .. v)
  self.v = nil
  return before, seen, after, self.v, self.w, obj.v, obj.w
end
put(class_of({v = "x"}, "y"))
local meta = {v = 1}
put(class_of(meta, 2))
meta.v = 5
put(class_of(meta, 3))
put(pcall(class_of, meta, 4))

-- debug.setlocal replaces the parameter: reads follow the new table
local function replaced(self)
  local a = self.x
  for i = 1, 2 do a = a + self.x end
  debug.setlocal(1, 1, {x = 100})
  local b = self.x
  for i = 1, 2 do b = b + self.x end
  return a, b, self.x
end
put(replaced({x = 1}))

-- suspended in the middle: the table changes (and becomes a class) meanwhile
local function reader(self)
  local a = self.f
  coroutine.yield(a)
  local b = self.f
  coroutine.yield(b)
  return self.f, self.g
end
local t = {f = 1}
local co = coroutine.wrap(reader)
put(co(t))
t.f = 2
put(co())
t.f = nil t.g = "g"
setmetatable({}, {__index = t}).h = 1
local child = setmetatable({}, {__index = t})
local _ = child.g
t.f = 3
put(co())

-- errors name the parameter as lua5.4 does
local function bad(self) local x = self.a return x + self.b + self.c end
put(pcall(bad, {a = 1, b = 2}))
put(pcall(bad, {a = 1, b = {}, c = 3}))

return transcript()
