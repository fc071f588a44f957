local co = coroutine.create(function() end)
print(type(co), type(coroutine.wrap(function() end)))
