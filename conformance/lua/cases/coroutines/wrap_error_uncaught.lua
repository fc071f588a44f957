local gen = coroutine.wrap(function() coroutine.yield(1); error("second call fails") end)
print(gen())
gen()
