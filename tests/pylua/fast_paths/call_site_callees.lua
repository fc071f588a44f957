-- One call site reached by every kind of callee: a Lua function, a host
-- function (one that finishes as a generator too: pcall of a yielding
-- function inside a coroutine), an object with __call, and values that
-- cannot be called; keeping one result, all of them, none, several, and
-- in tail position.
local Callable = setmetatable({}, {__call = function(self, a, b) return "called", a, b end})
local function lua(a, b) return "lua", a, b end
local callees = {lua, select, Callable, string.rep, pcall, type, 42, nil, "s"}
local function one(f, a, b) local r = f(a, b) return r end
local function all(f, a, b) return {f(a, b)} end
local function none(f, a, b) f(a, b) return "none" end
local function two(f, a, b) local x, y = f(a, b) return x, y end
local function tail(f, a, b) return f(a, b) end
local function passed(f, a, b) return select("#", f(a, b)) end
for i = 1, 9 do
  local f = callees[i]
  local a, b = (f == pcall) and lua or 2, 3
  if f == select then a = "#" end
  put(i, pcall(one, f, a, b))
  local ok, t = pcall(all, f, a, b)
  put(i, ok, ok and #t or t, ok and t[1] or nil, ok and t[3] or nil)
  put(i, pcall(none, f, a, b))
  put(i, pcall(two, f, a, b))
  put(i, pcall(tail, f, a, b))
  put(i, pcall(passed, f, a, b))
end
local co = coroutine.wrap(function()
  local function yielder(x) coroutine.yield(x) return x * 2 end
  local r = one(pcall, yielder, 5)
  local t = all(pcall, yielder, 6)
  return r, t[1], t[2]
end)
put(co())
put(co())
put(co())
return transcript()
