-- Tail calls inside coroutines, across yields.
local function count(n, acc)
  if n == 0 then return acc end
  if n % 100000 == 0 then coroutine.yield(n) end
  return count(n - 1, acc + 1)
end
local co = coroutine.wrap(function(n) return count(n, 0) end)
print(co(300000))
print(co())
print(co())
print(co())

-- the body of a coroutine ends with a tail call
local gen = coroutine.wrap(function()
  local function step(i)
    if i > 3 then return "done" end
    coroutine.yield(i)
    return step(i + 1)
  end
  return step(1)
end)
print(gen(), gen(), gen(), gen())

-- a tail call of coroutine.yield itself, and of a callable object
local echo = coroutine.wrap(function(...)
  local function again(...) return coroutine.yield(...) end
  local a, b = again(1, 2)
  return again(a + b)
end)
print(echo())
print(echo(3, 4))
print(echo("end"))
local ct = setmetatable({}, {__call = function(self, x) coroutine.yield(x) return x * 2 end})
local wrapped = coroutine.wrap(function() return ct(21) end)
print(wrapped(), wrapped())

-- an error raised after tail calls is caught by pcall inside the coroutine
local failing = coroutine.wrap(function()
  local function down(n) if n == 0 then error("bottom") end return down(n - 1) end
  return pcall(down, 100000)
end)
print(failing())
