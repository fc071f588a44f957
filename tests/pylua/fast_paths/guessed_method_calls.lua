-- Method calls on a table the function knows to be one (a parameter
-- indexed as a table, a table it made): called as Lua functions without a
-- test of the callee, whatever the method turns out to be: Lua functions
-- taking fewer or more arguments than given, varargs, several results or
-- none; host functions (rawlen, rawequal, table.insert through __index = table),
-- a table with __call, and values that cannot be called, named in the
-- error as lua5.4 names them; an error raised inside the method.
local Shape = {}
Shape.__index = Shape
function Shape.one(self, a) return a end
function Shape.two(self) return self.n, self.n + 1 end
function Shape.none(self) self.seen = (self.seen or 0) + 1 end
function Shape.va(self, ...) return select("#", ...), ... end
function Shape.fails(self, x) return x + nil end
Shape.len = rawlen
Shape.pick = rawequal
Shape.called = setmetatable({}, {__call = function(c, self, a, b) return "called", a, b end})
Shape.number = 42

local function calls(o, name, a, b)
  local r = o.n + 0                    -- o is indexed: a table here
  if name == "one" then
    return o:one(a, b), o:one(), r
  elseif name == "two" then
    local x, y = o:two(a)
    local t = {o:two()}
    return x, y, #t, o:two()
  elseif name == "none" then
    o:none(a, b, 1, 2)
    return o:none(), o.seen
  elseif name == "va" then
    return o:va(a, b), (o:va()), o:va(a)
  elseif name == "host" then
    local s = o:len(3)
    o:pick(2)
    return s, o:pick(o), (o:pick(1, a, b))
  elseif name == "called" then
    local c = o:called(a, b)
    return c, o:called(a)
  elseif name == "number" then
    return o:number(a)
  elseif name == "missing" then
    return o:missing(a)
  else
    return o:fails(a)
  end
end

for _, name in ipairs({"one", "two", "none", "va", "host", "called", "number", "missing", "fails"}) do
  for round = 1, 2 do
    local o = setmetatable({n = round}, Shape)
    put(name, round, pcall(calls, o, name, "x", round))
  end
end

-- A method on a table the function made: its own field.
local function made(k)
  local list = setmetatable({}, {__index = table})
  list:insert(k)
  list:insert(1, k + 1)
  local t = {f = function(self, a) return a * 2 end, g = rawlen, h = false}
  return list:concat(","), t:f(k), t:g(), pcall(function() return t:h() end)
end
for k = 1, 2 do put(made(k)) end

-- A method replaced while a loop calls it, by every kind of callee.
local obj = setmetatable({n = 0}, Shape)
local kinds = {Shape.one, rawlen, Shape.called, Shape.va, print == nil, Shape.one}
local function step(o, i) return o:m(i, "b") end
for i = 1, #kinds do
  obj.m = kinds[i]
  put(i, pcall(step, obj, i))
end
return transcript()
