print(load("\27Lua"))
print(load("\27Luaxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"))
print(pcall(string.dump, print))
local d = string.dump(function(a) return a + 1 end)
print(#d > 0, load(d, "x", "t"))
print(load(d)(41))
local up = 5
local f = function() return up end
print(load(string.dump(f))() == _G)
print(pcall(string.dump))
local e = load(string.dump(function() return x end), "n", "b", {x = 9})
print(e())
local function outer()
  local a, b = 1, 2
  return function(n) a = (a or 0) + n; return a, b end
end
local g = load(string.dump(outer()))
print(pcall(g, 1))
local main = load(string.dump(load("return 7 * 6")))
print(main())
local fact = string.dump(function(n) local r = 1 for i = 2, n do r = r * i end return r end, true)
print(load(fact)(10), load(fact, "=fact", "bt")(5))
