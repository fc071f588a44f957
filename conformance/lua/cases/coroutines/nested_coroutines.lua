local function gen(tag, n)
  return coroutine.wrap(function() for i = 1, n do coroutine.yield(tag .. i) end end)
end
local outer = coroutine.wrap(function()
  local a, b = gen("a", 2), gen("b", 2)
  coroutine.yield(a() .. b())
  coroutine.yield(a() .. b())
end)
print(outer(), outer())
