-- ipairs over tables whose metatable has __index: elements read raw, a nil
-- one through __index (a class answering, a function, a hole), the walk
-- ending at the first nil; a handler cannot yield, as from lua_geti.
local List = {}; List.__index = List
function List:sum() local s = 0 for i, v in ipairs(self) do s = s + i * v end return s end
local l = setmetatable({1, 2, 3}, List)
put(l:sum())
List[4] = 40      -- the class answers key 4
put(l:sum())
l[6] = 6          -- a hole at 5: the walk ends there
put(l:sum())
local calls = 0
local p = setmetatable({10, 20}, {__index = function(t, k) calls = calls + 1 if k < 5 then return k end end})
local s = 0 for i, v in ipairs(p) do s = s + v end
put(s, calls)
local q = setmetatable({1, nil, 3}, {__index = function(t, k) return k * 100 end})
local n, seen = 0, {} for i, v in ipairs(q) do n = n + 1 if n > 5 then break end seen[#seen + 1] = i .. "=" .. v end put(table.concat(seen, " "))
local co = coroutine.wrap(function()
  for i, v in ipairs(setmetatable({1, 2}, {__index = function(t, k) if k == 3 then coroutine.yield("y") end end})) do end
end)
put(pcall(co))
put(pcall(function() for i, v in ipairs(setmetatable({}, {__index = function() error("boom") end})) do end end))
return transcript()
