-- pairs loops over hash parts of sizes around those walked in two
-- snapshots (past WALK_COPIED keys, its first WALK_HEAD keys first),
-- clearing fields as they go: all of them, only the first ones, with
-- list parts and boolean keys beside.
local function count(t) local n, s = 0, 0 for k, v in pairs(t) do n = n + 1 s = s + v end return n, s end
for _, size in ipairs({0, 1, 7, 8, 9, 16, 100, 256, 257, 300}) do
  local t = {}
  for i = 1, size do t["k" .. i] = i end
  put(size, count(t))
  -- clear everything while walking
  local seen = 0
  for k in pairs(t) do t[k] = nil seen = seen + 1 end
  put(" cleared", seen, next(t))
  for i = 1, size do t["k" .. i] = i end
  -- clear the first fields only (the head) while walking
  local c, n = 0, 0
  for k, v in pairs(t) do n = n + 1 if c < 3 then c = c + 1 t[k] = nil end end
  local left = 0 for _ in pairs(t) do left = left + 1 end
  put(" partial", n, left)
  -- mixed array and hash, booleans
  local m = {1, 2, 3, x = 1, [true] = 2}
  for i = 1, size do m["k" .. i] = i end
  put(" mixed", count(m))
end
return transcript()
