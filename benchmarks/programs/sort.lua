-- table.sort without a comparator (integers, strings) and with a Lua
-- comparator function (records by two keys; integers descending).
local function checksum(t, f)
  local c = 0
  for i = 1, #t do
    c = (c * 31 + f(t[i]) * i) % 1000000007
  end
  return c
end

local function id(x) return x end

local function run(n)
  local seed = 42
  local nums, strs, recs = {}, {}, {}
  for i = 1, n do
    seed = (seed * 1103515245 + 12345) % 2147483648
    nums[i] = seed % 100000
    strs[i] = "s" .. (seed % 50000)
    recs[i] = {id = i, score = seed % 1000}
  end

  local desc = {}
  for i = 1, n do desc[i] = nums[i] end

  table.sort(nums)
  table.sort(strs)
  table.sort(desc, function(a, b) return a > b end)
  table.sort(recs, function(a, b)
    if a.score ~= b.score then
      return a.score > b.score
    end
    return a.id < b.id
  end)

  return string.format("nums = %d, desc = %d, recs = %d, strs = %s..%s, %s",
    checksum(nums, id), checksum(desc, id),
    checksum(recs, function(r) return r.id end),
    strs[1], strs[n], strs[n // 2])
end

print(run(50000))
