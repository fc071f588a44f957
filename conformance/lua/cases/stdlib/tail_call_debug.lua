-- What the debug library shows of tail calls: istailcall, no name for a
-- tail-called function, and "(...tail calls...)" in tracebacks.
local function info()
  local t = debug.getinfo(1, "tn")
  return t.istailcall, t.name, t.namewhat
end
local function tail_to_info() return info() end
print(tail_to_info())
local function call_info()
  local a, b, c = info()
  return a, b, c
end
print(call_info())
print(debug.getinfo(1, "t").istailcall)

local function level2()
  local t = debug.getinfo(2, "tl")
  return t.istailcall, t.currentline
end
local function middle() return level2() end
local function outer()
  local a, b = middle()
  return a, b
end
print(outer())

local function tb() return debug.traceback("trace") end
local function mid() return tb() end
print(mid())

local function deep(n)
  if n == 0 then return debug.traceback() end
  return deep(n - 1)
end
print(deep(10))
