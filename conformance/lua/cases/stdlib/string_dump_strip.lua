-- A stripped dump keeps no line information and no local names, as lua5.4's.
local function run(f, strip, ...)
  return pcall(load(string.dump(f, strip)), ...)
end
print(run(function () local a; return a + 1 end, true))
print(run(function () error("plain") end, true))
print(run(function () error("level two", 2) end, true))
print(run(function () return undefined_global.y end, true))
print(run(function () local t = {} return t.a.b end, true))
print(run(function () local t = {} return t:nope() end, true))
print(run(function () return undefined_global.y end, false))
print(run(function () error("kept") end))

-- Nested functions, constants of every kind and varargs survive a dump.
local counter = string.dump(function (...)
  local n = select('#', ...)
  local function add(k) n = n + k; return n end
  return add(1), add(2.5), -0.0, 1/0, math.mininteger, "s\0z", n
end)
print(load(counter)(1, 2, 3))
print(load(string.dump(load("return 7 * 6")))())
local info = debug.getinfo(load(string.dump(run)), "S")
print(info.what, info.linedefined, info.lastlinedefined)
