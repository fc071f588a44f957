local function gen(n)
  return coroutine.wrap(function() for i = 1, n do coroutine.yield(i, i * i) end end)
end
for i, sq in gen(4) do print(i, sq) end
