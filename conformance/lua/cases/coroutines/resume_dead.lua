local co = coroutine.create(function() return 1 end)
print(coroutine.resume(co))
print(coroutine.resume(co))
print(coroutine.resume(co))
