local f = coroutine.wrap(function() end)
f()
f()
