-- A yield where no coroutine can take it is an error where it is made,
-- which a pcall there catches, as lua5.4 does.
print(pcall(coroutine.yield, 1))
print(pcall(pcall, coroutine.yield, 2))
print(select(2, xpcall(coroutine.yield, function(m) return "handled: " .. m end, 3)))
print(pcall(function() return coroutine.yield(4) end))
print(coroutine.isyieldable(), pcall(coroutine.isyieldable))
local t = setmetatable({}, {__index = function(_, k) return select(2, pcall(coroutine.yield, k)) end})
print(t.x)
print(string.gsub("ab", "%w", function(c) return select(2, pcall(coroutine.yield, c)):sub(1, 9) end))
local co = coroutine.wrap(function(...)
  print("in", coroutine.isyieldable(), pcall(coroutine.isyieldable))
  print(string.gsub("a", "%w", function(c) return tostring(coroutine.isyieldable()) .. select(2, pcall(coroutine.yield, c)) end))
  local u = setmetatable({}, {__index = function(_, k) return coroutine.yield(k) end})
  print("index", u.y)
  print("pcall", pcall(function() return coroutine.yield("through pcall") end))
  local v = {3, 1, 2}
  table.sort(v, function(a, b)
    local ok, e = pcall(coroutine.yield, a)
    return a < b and not ok and e ~= nil
  end)
  print(v[1], v[2], v[3])
  return "done"
end)
print(co())
print(co("resumed y"))
print(co("resumed pcall"))
print(pcall(function() coroutine.yield(5) end))
