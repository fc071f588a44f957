local co = coroutine.create(function(...)
  print("args", select("#", ...), ...)
  print("resumed with", select("#", coroutine.yield()), "values")
  return nil, nil
end)
print(coroutine.resume(co, nil, nil))
print(coroutine.resume(co, 1, 2, 3))
