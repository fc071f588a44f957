-- string.gsub calls its function without a continuation: no yield across it.
local co = coroutine.wrap(function (c)
  print(coroutine.isyieldable())
  local s = string.gsub(c, ".", function (x)
    print(coroutine.isyieldable())
    return x .. x
  end)
  return s
end)
print(co("ab"))

co = coroutine.create(function ()
  return string.gsub("a", ".", function () coroutine.yield(1) end)
end)
print(coroutine.resume(co))
print(coroutine.status(co))

-- a coroutine resumed inside the callback yields to its own resume
print(string.gsub("xy", ".", function (x)
  local inner = coroutine.wrap(function () coroutine.yield(x:upper()) end)
  return inner()
end))
