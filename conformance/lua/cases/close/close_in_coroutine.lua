local function closer(name) return setmetatable({}, {__close = function() print("close", name) end}) end
local co = coroutine.create(function()
  local a <close> = closer("co-a")
  coroutine.yield(1)
  return 2
end)
print(coroutine.resume(co))
print(coroutine.resume(co))
local co2 = coroutine.create(function()
  local b <close> = closer("co-b")
  coroutine.yield(1)
end)
coroutine.resume(co2)
print(coroutine.close(co2), coroutine.status(co2))
