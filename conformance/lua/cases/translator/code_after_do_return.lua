-- Statements after a 'do return end' never run, but they compile, calls,
-- tests and loops included, in the plain form and in a coroutine.
local function f(...)
  do return -1, select("#", ...) end
  if g(1) then g() end
  for i = 1, 3 do print(i) end
  local t = {h(2)}
  return t
end
local function k(x)
  if x then
    do return "early" end
    print(tostring(x):upper())
  end
  while x do x = x - 1 end
  return "late"
end
print(f(1, 2))
print(k(true), k(false))
print(coroutine.wrap(function(...) local a, b = f(...) coroutine.yield(a) return b, k(1) end)(7, 8, 9))
local co = coroutine.wrap(function() do return "done" end coroutine.yield("never") end)
print(co())
