-- What a coroutine's function returns, and a tail call it returns with,
-- are the last resume's results; a tail-called function may yield.
local function h(a, b) coroutine.yield(a + b) return a * b, "done" end
local co = coroutine.wrap(function(a, b) coroutine.yield(a) return h(a, b) end)
print(co(2, 3)) print(co()) print(co())
print(coroutine.resume(coroutine.create(function() return end)))
print(coroutine.resume(coroutine.create(function() return nil end)))
print(coroutine.resume(coroutine.create(function(...) return ... end), 1, nil, 3))
print(coroutine.resume(coroutine.create(function(a, b, c) return c, b, a end), 1, 2, 3, 4))
print(coroutine.resume(coroutine.create(print), "x", "y"))
local callable = setmetatable({}, {__call = function(self, a) coroutine.yield(a) return "called" end})
local co2 = coroutine.create(function(a) return callable(a) end)
print(coroutine.resume(co2, 5)) print(coroutine.resume(co2)) print(coroutine.resume(co2))
print(coroutine.resume(coroutine.create(function() return string.rep("a", 3) end)))
local co3 = coroutine.create(function(a) return coroutine.yield(a) end)
print(coroutine.resume(co3, 1)) print(coroutine.resume(co3, 2, 3)) print(coroutine.resume(co3))
local co4 = coroutine.create(function()
  local t = setmetatable({}, {__index = function(t, k) return coroutine.yield(k) end})
  return t.foo
end)
print(coroutine.resume(co4)) print(coroutine.resume(co4, "bar"))
local co5 = coroutine.wrap(function() return select('#', coroutine.yield()) end)
co5() print(co5(nil, nil))
local function count(n) if n == 0 then return "bottom" end coroutine.yield(n) return count(n - 1) end
local co6 = coroutine.wrap(count)
print(co6(3), co6(), co6(), co6())
