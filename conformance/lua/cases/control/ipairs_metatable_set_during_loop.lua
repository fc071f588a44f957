-- ipairs reads each index through the table: an __index the loop body
-- gives the table answers the indices past the list, and the holes in it.
local t = {1, 2}
for i, v in ipairs(t) do
  print(i, v)
  if i == 1 then setmetatable(t, {__index = function(_, k) if k <= 4 then return "m" .. k end end}) end
end

local u = setmetatable({1, 2}, {})
for i, v in ipairs(u) do
  print("u", i, v)
  if i == 2 then getmetatable(u).__index = {nil, nil, "three"} end
end

local w = {1, 2, 3}
w[2] = nil
for i, v in ipairs(w) do
  print("w", i, v)
  setmetatable(w, {__index = function(_, k) if k < 4 then return "x" .. k end end})
end

local z = {1}
for i in ipairs(z) do print("z", i) setmetatable(z, {__index = {nil, 5}}) end

-- a loop with loops inside it
local o = {1, 2}
for i, v in ipairs(o) do
  for _ = 1, 1 do end
  for _ in ipairs({}) do end
  print("o", i, v)
  if i == 2 then setmetatable(o, {__index = {nil, nil, 3}}) end
end

-- a metatable without __index, and a break
local p = {1, 2}
for i, v in ipairs(p) do print("p", i, v) setmetatable(p, {}) end
local q = {1, 2, 3}
for i, v in ipairs(q) do
  print("q", i, v)
  setmetatable(q, {__index = {}})
  if i == 2 then break end
end

-- in a coroutine
print(coroutine.wrap(function()
  local c = {1}
  local n = 0
  for _ in ipairs(c) do
    n = n + 1
    setmetatable(c, {__index = function(_, k) if k < 3 then return k end end})
    coroutine.yield(n)
  end
  return n
end)())
