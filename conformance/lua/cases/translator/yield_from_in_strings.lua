-- Lua strings holding Python words are data, in plain and coroutine code
local function show(s) print(s, #s) end
print("yield from x")
show('a = yield from b')
local t = {["yield from "] = 1, k = "nonlocal DEBT"}
print(t["yield from "], t.k)
local co = coroutine.wrap(function(a)
  local s = "yield from " .. a
  coroutine.yield(s)
  print(select('#', "yield from "), "SYNC(" .. "yield from )")
  return "done: yield from"
end)
print(co("z"))
print(co())
print(string.format("%q", "yield from \"q\"\\"))
