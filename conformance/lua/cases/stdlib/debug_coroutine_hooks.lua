-- Hooks belong to one coroutine: each thread has its own.
local log = {}
local function logger(tag)
  return function (event, line)
    log[#log + 1] = tag .. ":" .. event .. (line and (":" .. line) or "")
  end
end

local co = coroutine.create(function (a)
  local b = a * 2
  local c = coroutine.yield(b)
  return b + c
end)

debug.sethook(co, logger("co"), "l")
print(debug.gethook(co) ~= nil, debug.gethook() == nil)
print(coroutine.resume(co, 5))
local x = 1
print(coroutine.resume(co, 7))
print(table.concat(log, " "))
local hf, hm, hc = debug.gethook(co)
print(type(hf), hm, hc)

-- a hook set inside the coroutine stays with it
log = {}
local co2 = coroutine.wrap(function ()
  debug.sethook(logger("inner"), "l")
  local y = 1
  coroutine.yield()
  y = y + 1
  debug.sethook()
  return y
end)
co2()
local z = 2
co2()
print(table.concat(log, " "))

-- the main thread's hook does not see another coroutine's lines
log = {}
local co3 = coroutine.create(function ()
  local w = 1
  w = w + 1
  return w
end)
debug.sethook(logger("main"), "l")
local ok, w = coroutine.resume(co3)
debug.sethook()
print(ok, w, table.concat(log, " "))

-- levels of a suspended coroutine
local co4 = coroutine.create(function (p)
  local q = p + 1
  coroutine.yield()
end)
coroutine.resume(co4, 41)
print(debug.getlocal(co4, 1, 1), debug.getlocal(co4, 1, 2))
print(debug.getinfo(co4, 1, "l").currentline, debug.getinfo(co4, 2))
print(debug.setlocal(co4, 1, 2, "changed"), debug.getlocal(co4, 1, 2))
print(pcall(debug.getlocal, co4, 3, 1))
