-- A function called by a tail call gets a 'tail call' event, and the
-- function it replaced has no return event; a library function that
-- returns its last arguments transfers them where they are.
local function trace(f, ...)
  local events = {}
  debug.sethook(function (event)
    local info = debug.getinfo(2, "nrt")
    local values = {}
    for i = info.ftransfer, info.ftransfer + info.ntransfer - 1 do
      local _, v = debug.getlocal(2, i)
      values[#values + 1] = type(v) == "table" and "table" or tostring(v)
    end
    events[#events + 1] = string.format("%s %s tail=%s [%s]", event, tostring(info.name),
                                        tostring(info.istailcall), table.concat(values, ","))
  end, "cr")
  f(...)
  debug.sethook()
  table.remove(events, 1)           -- sethook's own return
  table.remove(events)              -- the call of sethook that ends it
  for _, e in ipairs(events) do print(e) end
  print("--")
end

local function leaf(a, b) return a + b, a * b end
local function middle(a) return leaf(a, 10) end
local function top(a) local r = {middle(a)}; return #r end
trace(top, 3)

local function dispatch(handlers, name, ...)
  local handler = handlers[name]
  return handler(...)
end
trace(dispatch, {greet = function (who) return "hello " .. who end}, "greet", "lua")

trace(select, 2, "a", "b", "c")
trace(assert, 1, "message")
