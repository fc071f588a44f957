-- Errors raised by __close handlers go through the message handler too,
-- at their own raise point, and the last one is the result.
local function closer(f) return setmetatable({}, {__close = f}) end

local function task()
  do
    local first <close> = closer(function (_, msg)
      print("first closing, error so far:", (string.match(msg, "^[^\n]*")))
      error("first close failed")
    end)
    local second <close> = closer(function (_, msg)
      print("second closing, error so far:", msg)
      error("second close failed")
    end)
  end
  print("not reached")
end

local calls = 0
local ok, msg = xpcall(task, function (m)
  calls = calls + 1
  return m .. "\n" .. debug.traceback("", 2)
end)
print(ok, calls)
print(msg)

-- a function returning normally whose close handler errors
local function finish()
  local x <close> = closer(function () error("cleanup failed") end)
  return "result"
end
print(xpcall(finish, debug.traceback))
