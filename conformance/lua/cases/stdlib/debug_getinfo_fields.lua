-- getinfo's fields for functions and levels.
local function f(a, b, ...)
  local up = print
  return a
end

local function show(t)
  local keys = {}
  for k in pairs(t) do
    if k ~= "func" and k ~= "activelines" then keys[#keys + 1] = k end
  end
  table.sort(keys)
  for _, k in ipairs(keys) do print(k, t[k]) end
end

local info = debug.getinfo(f, "Su")
show(info)
print(debug.getinfo(f, "f").func == f)

info = debug.getinfo(print, "Sul")
show(info)

local function where()
  local i = debug.getinfo(2, "Sl")
  return i.currentline, i.what, i.short_src
end
print(where())

local function lines_of(fn)
  local t = {}
  for l in pairs(debug.getinfo(fn, "L").activelines) do t[#t + 1] = l end
  table.sort(t)
  return table.concat(t, " ")
end
print(lines_of(f))
print(lines_of(function () end))
print(debug.getinfo(print, "L").activelines)

local function named()
  local i = debug.getinfo(1, "n")
  return i.name, i.namewhat
end
print(named())
local t = {m = named}
print(t.m())

local main = debug.getinfo(1, "S")
print(main.what, main.linedefined, main.source:sub(1, 1))
print(pcall(debug.getinfo, 1, "X"))
print(debug.getinfo(100))

-- a finalizer runs as the __gc metamethod
local finalizer_name
local function make_garbage()
  setmetatable({}, {__gc = function ()
    local i = debug.getinfo(1, "n")
    finalizer_name = i.namewhat .. " " .. i.name
  end})
end
make_garbage()
collectgarbage()
print(finalizer_name)
