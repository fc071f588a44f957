-- Method calls obj:m(...): the method in the object itself, in classes one
-- to three levels up, in none (errors naming the method), behind __index
-- functions (run before the arguments, yielding inside a coroutine),
-- classes and __index changed while a loop calls, and strings.
local Base = {}
Base.__index = Base
function Base:name() return "base" end
function Base:get() return self.x end
local Mid = setmetatable({}, Base)
Mid.__index = Mid
function Mid:name() return "mid" end
local Top = setmetatable({}, Mid)
Top.__index = Top

local o = setmetatable({x = 1}, Top)
put(o:name(), o:get(), select('#', o:get()))
o.name = function() return "own" end
put(o:name())
o.name = nil
put(o:name())
-- Classes as receivers (their hash parts are the caches' ClassHash dicts).
put(Mid:name(), Top:name(), Top:get(), Base:get())

-- Class tables written while a loop calls through them.
local seen = {}
for i = 1, 6 do
  seen[#seen + 1] = o:name()
  if i == 2 then Mid.name = nil end
  if i == 3 then Base.name = function() return "base2" end end
  if i == 4 then Top.name = function() return "top" end end
  if i == 5 then rawset(Top, "name", nil) end
end
put(table.concat(seen, ","))
setmetatable(Mid, nil)
put(pcall(function() return o:name() end))
setmetatable(Mid, Base)

-- __index replaced by a function, then by another table.
local calls = {}
Top.__index = function(t, k) calls[#calls + 1] = "index " .. k return function(self, a) return k, a end end
local function arg(v) calls[#calls + 1] = "arg" return v end
put(o:anything(arg(5)))
put(table.concat(calls, ","))
Top.__index = {name = function() return "plain" end}
put(o:name())
Top.__index = Top

-- No method: the errors name it.
local bare = {}
put(pcall(function() return bare:missing() end))
put(pcall(function() return o:missing(1) end))
local nometa = setmetatable({}, {})
put(pcall(function() return nometa:missing() end))
local n
put(pcall(function() return n:missing() end))
put(pcall(function() local k = 5 return k:missing() end))
put(pcall(function() return o.x:missing() end))

-- A handler that errors, and one that yields inside a coroutine.
local bad = setmetatable({}, {__index = function(t, k) error("no " .. k) end})
put(pcall(function() return bad:thing() end))
local co = coroutine.wrap(function()
  local y = setmetatable({}, {__index = function(t, k) return coroutine.yield(k) end})
  return y:step(10)
end)
put(co())
put(co(function(self, v) return "resumed", v end))

-- Methods on strings, and the string metatable's __index replaced.
local s = "hello"
put(s:upper(), s:sub(2, 3), ("x"):rep(3), s:len())
put(pcall(function() return s:nosuch() end))
local smeta = getmetatable("")
local strlib = smeta.__index
smeta.__index = function(str, k) return function(self, ...) return k, select('#', ...) end end
put(s:upper(1, 2))
smeta.__index = {upper = function() return "mine" end}
put(s:upper(), pcall(function() return s:lower() end))
smeta.__index = strlib
put(s:upper())

-- A handler two classes up answers each read anew (its answer is never
-- cached): fields and methods read in a loop, with a class between that
-- gains and loses the key, and a handler replaced by a table and back.
local hits = 0
local Root = setmetatable({}, {__index = function(t, k) hits = hits + 1 return k .. hits end})
Root.__index = Root
local Mid = setmetatable({}, Root)
Mid.__index = Mid
local leaf = setmetatable({}, Mid)
for i = 1, 6 do
  if i == 3 then Mid.fld = "mid" end
  if i == 4 then Mid.fld = nil end
  if i == 5 then getmetatable(Root).__index = {fld = "tbl", meth = function() return "tbl" end} end
  if i == 6 then getmetatable(Root).__index = function(t, k) return function() return "fn " .. k end end end
  local ok, m = pcall(function() return leaf:meth() end)
  local fld, other = leaf.fld, leaf.other
  if type(fld) == "function" then fld, other = fld(), other() end
  put(i, fld, other, ok, m)
end
put(hits)

-- Many keys on one class (the cache keeps at most 256), then all again.
local Big = {}
Big.__index = Big
for i = 1, 300 do Big["m" .. i] = function() return i end end
local b = setmetatable({}, Big)
local sum = 0
for round = 1, 2 do
  for i = 1, 300 do sum = sum + b["m" .. i](b) + (i == 7 and b:m7() or 0) end
end
put(sum)
return transcript()
