local gen = coroutine.wrap(function(n)
  for i = 1, n do coroutine.yield(i) end
  return "done"
end)
print(gen(3), gen(), gen(), gen())
