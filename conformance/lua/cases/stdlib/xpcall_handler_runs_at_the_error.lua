-- An xpcall message handler runs where the error is raised, before the
-- stack unwinds: it sees the erroring frames, then <close> variables close
-- with the handler's result.
local function parse_number(text)
  local n = tonumber(text)
  if not n then error("not a number: " .. text) end
  return n
end

local function sum(list)
  local guard <close> = setmetatable({}, {__close = function (_, e)
    print("guard closed with", e)
  end})
  local total = 0
  for _, item in ipairs(list) do total = total + parse_number(item) end
  return total
end

local function handler(msg)
  print("handler:", msg)
  print(debug.traceback("trace", 2))
  local info = debug.getinfo(3, "nSl")
  print("raised in", info.name, info.what, info.currentline)
  local name, value = debug.getlocal(3, 1)
  print("its first local", name, value)
  local i = 1
  while true do
    local n, v = debug.getlocal(4, i)
    if not n then break end
    if n == "total" then print("sum's total so far", v) end
    i = i + 1
  end
  return "handled: " .. msg
end

print(xpcall(sum, handler, {"1", "2", "x3"}))
print(xpcall(sum, handler, {"4", "5"}))

-- a runtime error (no error function level) and a non-string error value
print(xpcall(function (t) return t.field.sub end, function (m)
  print(debug.traceback(m, 2))
  return "H"
end, {}))
print(xpcall(function () error({reason = "bad"}) end, function (e)
  return e.reason .. " (seen at level 2: " .. debug.getinfo(2, "S").what .. ")"
end))
