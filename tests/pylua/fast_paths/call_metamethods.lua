-- Calling objects through __call: chains, arguments, results, errors,
-- recursion to a stack overflow, yields through a handler, and handlers
-- replaced while the program runs.
local mt = {}
local a = setmetatable({}, mt)
mt.__call = function(self, n) if n == 0 then return "done", self == a end return self(n - 1) end
put(a(10))
put(select('#', a(0)), (a(3)))

local Class = setmetatable({}, {__call = function(cls, x) return setmetatable({x = x}, {__index = cls}) end})
function Class:get() return self.x end
put(Class(5):get(), Class("s"):get())

local depth = 0
mt.__call = function(self) depth = depth + 1 local r = self() return r end
local ok, e = pcall(a)
put(ok, e, depth > 1000)

put(pcall(setmetatable({}, {__call = 1})))
put(pcall(function() local t = {} t() end))
put(pcall(function() local t = setmetatable({}, {}) local v = t(1) return v end))

local nest = setmetatable({}, {__call = setmetatable({}, {__call = function(x, y, z) return type(x), type(y), z end})})
put(nest(7))

mt.__call = function(_, ...) return select('#', ...), ... end
put(a())
put(a(nil, nil))
put(a(1, 2, 3))
local t = {a(4, 5)}
put(#t, t[1], t[3])

mt.__call = string.rep
put(pcall(a, 2))
mt.__call = function(self, s) return tostring(self == a) .. s end
put(a("!"))

local co = coroutine.wrap(function()
  local y = setmetatable({}, {__call = function(_, v) return coroutine.yield(v) end})
  local r = y(1) + 1
  return r
end)
put(co(), co(41))

local errs = setmetatable({}, {__call = function() error("in call") end})
put(pcall(errs))
put(pcall(errs, 1, 2))
local errs0 = setmetatable({}, {__call = function() error({code = 7}) end})
local ok2, obj = pcall(errs0)
put(ok2, type(obj), obj.code)
return transcript()
