-- Arguments copied from locals straight into a call (no copy into the
-- argument registers first): the receiver of a method call, locals,
-- parameters and upvalues as arguments, mixed with computed arguments,
-- constants and upvalues, and calls (which see the locals as they are);
-- varargs, several results, copies that feed no call (swaps, returns,
-- constructors), and captured locals a call in the arguments changes.
local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  return t.n .. ":" .. table.concat(t, ",", 1, t.n)
end
local function three() return 1, 2, 3 end
local Obj = {}
Obj.__index = Obj
function Obj:m(...) return self.name .. "(" .. show(...) .. ")" end
local up = "up"

local function calls(a, b, o)
  local c, d = a .. "c", b
  put(show(a, b, c, d))
  put(show(a, a, b, b))
  put(show(a, c .. "!", b, #c))
  put(show(a, show(b, c), d))
  put(show(a, three()))
  put(show(a, b, (three())))
  put(show(up, a, up))
  put(o:m(a, b), o:m(o.name), o:m(), o:m(a, three()))
  put(o:m(o:m(a), b))
  put(o:m(a, 1, true, up, b, "k", false, d))
  local x, y = a, b
  x, y = y, x
  put(x, y)
  local t = {a, b, c}
  put(#t, t[1], t[3])
  local other = setmetatable({name = "other"}, Obj)
  put(o:m(a), other:m(a))
  return a, b, d
end
local o = setmetatable({name = "o"}, Obj)
for i = 1, 2 do put(calls("a" .. i, "b" .. i, o)) end
put(pcall(calls, "a", nil, o))
put(pcall(calls, "a", "b", {}))

-- A captured local changed by a call among the arguments: the argument
-- before it was read before the call, as Lua reads it.
local function captured()
  local v = 1
  local function bump() v = v + 1 return v end
  return show(v, bump(), v, bump())
end
put(captured())
local function varargs(...)
  local a = ...
  return show(a, ...), show(..., a), select("#", ...)
end
put(varargs(1, nil, 3))
put(varargs())
return transcript()
