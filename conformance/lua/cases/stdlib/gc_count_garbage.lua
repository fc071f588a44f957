-- collectgarbage("count") counts garbage until a collection finds it.
collectgarbage()
collectgarbage("stop")
local x = collectgarbage("count")
repeat
  for i = 1, 1000 do _ENV.a = {} end
until collectgarbage("count") > 2 * x
print("grew while stopped")
collectgarbage("restart")
collectgarbage()
print(collectgarbage("count") < 2 * x)

collectgarbage("incremental")   -- a step ends a cycle only there
local function dosteps(siz)
  collectgarbage()
  local a = {}
  for i = 1, 100 do a[i] = {{}}; local b = {} end
  local before = collectgarbage("count")
  local i = 0
  repeat i = i + 1 until collectgarbage("step", siz)
  print(collectgarbage("count") < before)
  return i
end
collectgarbage("stop")
print(dosteps(20000))
print(collectgarbage("step", 20000), collectgarbage("isrunning"))
collectgarbage("restart")

-- A long string is counted while it lives and not after.
collectgarbage()
local base = collectgarbage("count")
local s = string.rep("x", 2 ^ 20)
print(collectgarbage("count") > base + 1000)
s = nil
collectgarbage()
print(collectgarbage("count") < base + 100)
