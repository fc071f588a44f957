local co = coroutine.create(function() coroutine.yield(1); local t = nil; return t.x end)
print(coroutine.resume(co))
print(coroutine.resume(co))
print(coroutine.status(co), coroutine.resume(co))
