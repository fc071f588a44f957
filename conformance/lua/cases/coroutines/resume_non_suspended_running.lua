local co
co = coroutine.create(function() return coroutine.resume(co) end)
print(coroutine.resume(co))
print(coroutine.resume(coroutine.running()))
