-- next by hand: a traversal's start costs nothing however big the table;
-- clearing fields (the first one too) while traversing, restarts, the
-- array part then the hash part, booleans as keys.
local function keys_of(t)
  local out, k = {}, next(t)
  while k ~= nil do out[#out + 1] = tostring(k) k = next(t, k) end
  table.sort(out)
  return table.concat(out, ",")
end
local t = {10, 20, a = 1, b = 2, c = 3, [true] = "t", [false] = "f", [2.5] = "x"}
put(keys_of(t))
local first = next(t)
put(first)
local k = next(t, 2)
put(k ~= nil)
-- clear every field while traversing, the current one each time
local h = {}
for i = 1, 50 do h["k" .. i] = i end
local n, key = 0, next(h)
while key ~= nil do
  local nxt = next(h, key)
  h[key] = nil
  n = n + 1
  key = nxt
end
put(n, next(h))
-- clear the first key, then go on from it
local g = {x = 1, y = 2, z = 3}
local k1 = next(g)
g[k1] = nil
local rest = {}
local k2 = next(g, k1)
while k2 ~= nil do rest[#rest + 1] = k2 k2 = next(g, k2) end
rest[#rest + 1] = k1
table.sort(rest)
put(#rest, table.concat(rest, ","))
-- drain by restarting at the front
local d = {}
for i = 1, 2000 do d["d" .. i] = i end
local drained = 0
while true do
  local dk = next(d)
  if dk == nil then break end
  d[dk] = nil
  drained = drained + 1
end
put(drained, next(d))
-- emptiness checks
put(next({}), next({nil}), next({1}), next({a = false}))
put(pcall(next, {a = 1}, "nope"))
put(pcall(next, {}, 1))
put(pcall(next, nil))
return transcript()
