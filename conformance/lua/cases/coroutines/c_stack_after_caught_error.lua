-- Inside a coroutine, a yield across a C-call boundary (table.sort's
-- comparator and its __lt, __tostring, load's reader, gsub's function) is
-- an error where it is made: a pcall there catches it, and the C-stack
-- levels the calls took are given back (found by the campaign: 930048374).
local function depth()
  local n = 0
  local function r() n = n + 1; pcall(r) end
  pcall(r)
  return n
end
local co = coroutine.wrap(function()
  local before = depth()
  local lt = setmetatable({}, {__lt = function() coroutine.yield() end})
  print(pcall(table.sort, {lt, lt, lt}))
  print(pcall(table.sort, {3, 2, 1}, function(a, b) coroutine.yield() end))
  local inner = setmetatable({}, {__lt = function() print("lt", pcall(coroutine.yield)) return false end})
  print(pcall(table.sort, {inner, inner}))
  print(pcall(table.sort, {3, 2, 1}, function(a, b) print("cmp", pcall(coroutine.yield)) return a > b end))
  print(pcall(tostring, setmetatable({}, {__tostring = function() coroutine.yield() end})))
  print(pcall(tostring, setmetatable({}, {__tostring = function() print("ts", pcall(coroutine.yield)) return "s" end})))
  print(select("#", load(function() coroutine.yield() end)), select(2, load(function() coroutine.yield() end)))
  print(pcall(string.gsub, "ab", "%w", function() coroutine.yield() end))
  print(coroutine.isyieldable(), depth() == before)
  for k in pairs(setmetatable({}, {__pairs = function(t) coroutine.yield("from __pairs") return next, t end})) do end
  print("end", depth() == before)
end)
print(co())
print(co())
