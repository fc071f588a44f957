local outer
local inner = coroutine.create(function() print("outer is", coroutine.status(outer)) end)
outer = coroutine.create(function() coroutine.resume(inner) end)
coroutine.resume(outer)
