-- A call profiler: counts calls and returns of Lua functions by name.
local calls, returns, depth, deepest = {}, 0, 0, 0

local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

local Stack = {}
Stack.__index = Stack
function Stack.new() return setmetatable({n = 0}, Stack) end
function Stack:push(v) self.n = self.n + 1; self[self.n] = v end
function Stack:pop() local v = self[self.n]; self[self.n] = nil; self.n = self.n - 1; return v end

local function hook(event)
  local info = debug.getinfo(2, "nS")
  if info.what == "C" then return end
  if event == "call" then
    local name = info.name or "?"
    calls[name] = (calls[name] or 0) + 1
    depth = depth + 1
    if depth > deepest then deepest = depth end
  elseif event == "return" then
    returns = returns + 1
    depth = depth - 1
  end
end

local function work()
  local s = Stack.new()
  for i = 1, 3 do s:push(fib(i + 3)) end
  return s:pop() + s:pop() + s:pop()
end

debug.sethook(hook, "cr")
local total = work()
debug.sethook()

local names = {}
for name in pairs(calls) do names[#names + 1] = name end
table.sort(names)
for _, name in ipairs(names) do print(name, calls[name]) end
print("total", total, "returns", returns, "deepest", deepest)
local f, mask, count = debug.gethook()
print(f, mask, count)
debug.sethook(hook, "rlc", 0)
local _, m = debug.gethook()
debug.sethook()
print(m)
