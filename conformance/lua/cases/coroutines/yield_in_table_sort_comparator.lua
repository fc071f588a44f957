local co = coroutine.create(function()
  table.sort({3, 1, 2}, function(a, b) coroutine.yield(); return a < b end)
end)
print(coroutine.resume(co))
