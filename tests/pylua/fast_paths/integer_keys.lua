-- Keys used more than once in a straight-line run (t[i] = t[i] + 1, swaps):
-- one guard that they are integers, and the general copy of the run for
-- every other key: strings, floats with and without an integer value,
-- booleans, tables, nil and NaN (errors as lua5.4 words them), keys before,
-- inside, at the end of and past the list part, and tables with
-- __index/__newindex.
local function bump(t, i) t[i] = (t[i] or 0) + 1 return t[i] end
local function inc(t, i) t[i] = t[i] + 1 return t[i] end
local function swap(v, i, j) v[i], v[j] = v[j], v[i] return v[i], v[j] end
local function pair(t, i, j) local a, b = t[i], t[j] t[i] = b t[j] = a return t[i] == b end

local key = {}
local keys = {1, 2, 3, 4, 0, -1, 2.0, 2.5, "x", "1", true, false, key, 1e300, math.huge, 2^53}
local t = {10, 20, 30}
for n, k in ipairs(keys) do
  put(n, pcall(bump, t, k))
  put(n, pcall(inc, t, k))
end
put(t[1], t[2], t[3], t[4], t[0], t[-1], t["x"], t[true], t[key], t[2.5])
put(pcall(bump, t, nil))
put(pcall(bump, t, 0/0))
put(pcall(bump, nil, 1))
put(pcall(bump, "str", 1))
put(pcall(inc, t, 9))
put(pcall(inc, t, "y"))
put(pcall(inc, t, nil))

local v = {1, 2, 3, 4, 5}
for _, p in ipairs({{1, 5}, {2, 3}, {5, 6}, {0, 1}, {"a", 1}, {1.0, 2}, {3, 3}}) do
  put(pcall(swap, v, p[1], p[2]))
end
put(v[1], v[2], v[3], v[4], v[5], v[0], v[6], v.a)
put(pcall(swap, v, nil, 1))

-- Through metatables: __index answers the read, __newindex the stores of
-- absent keys.
local log = {}
local proxy = setmetatable({5, 6}, {
  __index = function(_, k) return type(k) == "number" and k * 100 or nil end,
  __newindex = function(tt, k, val) log[#log + 1] = tostring(k) .. "=" .. tostring(val) rawset(tt, k, val) end})
for _, k in ipairs({1, 2, 3, 3, "s"}) do put(pcall(bump, proxy, k)) end
put(pcall(pair, proxy, 1, 4))
put(table.concat(log, " "), rawget(proxy, 3), rawget(proxy, 4))

-- Keys read from a table in the run (field names, some integers): no guard.
local fields = {"a", 2, "b", 1}
local counts = {0, 0, a = 0, b = 0}
for i = 1, 8 do
  local f = fields[i % 4 + 1]
  counts[f] = counts[f] + i
end
put(counts[1], counts[2], counts.a, counts.b)

-- Keys in the hash part (sparse, out of order) and moving to the list.
local sparse = {}
for _, k in ipairs({5, 3, 1, 2, 4, 100, -7}) do bump(sparse, k) bump(sparse, k) end
put(sparse[1], sparse[5], sparse[100], sparse[-7])
return transcript()
