-- Methods of one name with different parameter counts, called with the
-- most arguments any call of that name passes: the extra arguments are
-- dropped as Lua drops them, and debug sees only the declared parameters.
local Leaf, Pair = {}, {}
Leaf.__index, Pair.__index = Leaf, Pair
function Leaf:eval() return self.v end
function Pair:eval(env, depth)
  return self.l:eval(env, (depth or 0) + 1) + self.r:eval(env, depth) + (env.bias or 0)
end
local function leaf(v) return setmetatable({v = v}, Leaf) end
local tree = setmetatable({l = leaf(1), r = setmetatable({l = leaf(2), r = leaf(3)}, Pair)}, Pair)
local total = 0
for i = 1, 20 do total = total + tree:eval({bias = i % 3}, i) end
put(total, tree:eval({}), Leaf.eval(leaf(7), 1, 2, 3))
-- Called through the field with more arguments, through pcall, and as a value.
put(pcall(Leaf.eval, leaf(8), "extra", "more"), select("#", Leaf.eval(leaf(9), 1, 2)))
local info = debug.getinfo(Leaf.eval, "u")
put(info.nparams, info.isvararg, debug.getlocal(Leaf.eval, 1), debug.getlocal(Leaf.eval, 2))
-- Inside the method, the dropped arguments are nowhere to be seen.
function Leaf:locals(...)
  local names = {}
  local i = 1
  while true do
    local name = debug.getlocal(1, i)
    if not name then break end
    names[#names + 1] = name
    i = i + 1
  end
  return table.concat(names, ","), select("#", ...)
end
function Pair:show()
  local n = debug.getlocal(1, 2)
  return tostring(n)
end
put(setmetatable({}, Pair):show(4, 5), leaf(1):locals(1, 2, 3))
Leaf.show = Pair.show
put(leaf(1):show(6, 7, 8))
-- Callbacks, iterators and local functions given more arguments than they
-- take: spare parameters hold them, invisible to debug and to varargs.
local function each(list, fn) for i = 1, #list do fn(list[i], i, list) end end
local seen = {}
each({"a", "b"}, function(v) seen[#seen + 1] = v .. ":" .. debug.getinfo(1, "u").nparams end)
each({"c"}, function(v, ...) seen[#seen + 1] = v .. select("#", ...) end)
local function range(n) local i = 0 return function() i = i + 1 if i <= n then return i end end end
for i in range(2) do seen[#seen + 1] = tostring(i) .. ":" .. tostring(debug.getlocal(1, 1)) end
local function first(x) return x end
put(table.concat(seen, " "), first(1, 2, 3), select("#", first(4, 5)), pcall(first, 6, 7, 8))
local handler = function(self) return self.name end
put(handler({name = "h"}, "event", 3), pcall(handler))
return transcript()
