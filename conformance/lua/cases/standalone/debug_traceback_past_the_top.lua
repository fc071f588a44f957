-- debug.traceback from a level past the stack's top shows no level, not
-- even the host's base.
print(debug.traceback("msg", 100))
print(debug.traceback("msg", 3))
print(debug.traceback("msg", 2))
local function f() return debug.traceback("in f", 3) end
print(f())
print(debug.traceback("neg", -1) ~= nil)
local co = coroutine.create(function() coroutine.yield() end)
coroutine.resume(co)
print(debug.traceback(co, "co", 0))
print(debug.traceback(co, "co", 1))
print(debug.traceback(co, "co", 5))
