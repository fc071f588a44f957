-- A coroutine that dies of an error keeps its <close> variables pending
-- until coroutine.close; coroutine.wrap closes them before re-raising.
local function closer(name, fail)
  return setmetatable({}, {__close = function (_, e)
    print("closing " .. name, e)
    if fail then error(fail, 0) end
  end})
end

local co = coroutine.create(function ()
  local file <close> = closer("file")
  local conn <close> = closer("conn", "conn close failed")
  error("read failed", 0)
end)
print(coroutine.resume(co))
print(coroutine.status(co))
print("now closing")
print(coroutine.close(co))
print(coroutine.close(co))

local gen = coroutine.wrap(function ()
  local buf <close> = closer("buf")
  coroutine.yield(1)
  error("gen failed", 0)
end)
print(gen())
print(pcall(gen))
