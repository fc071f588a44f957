local co
co = coroutine.create(function() return pcall(coroutine.close, co) end)
print(coroutine.resume(co))
print(pcall(coroutine.close, coroutine.running()))
