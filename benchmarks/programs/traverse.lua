-- Table traversal: ipairs over an array, pairs over a string-keyed table
-- and over an integer-keyed array, and a numeric for with t[i] indexing.
local function run(n, m, rounds)
  local arr = {}
  for i = 1, n do
    arr[i] = i * 3 % 1001
  end
  local map = {}
  for i = 1, m do
    map["key" .. i] = i % 97
  end

  local s1, s2, s3, s4 = 0, 0, 0, 0
  for _ = 1, rounds do
    for i, v in ipairs(arr) do
      s1 = s1 + v * i
    end
    for k, v in pairs(map) do
      s2 = s2 + v + #k
    end
    for _, v in pairs(arr) do
      s3 = s3 + v
    end
    for i = 1, #arr do
      s4 = s4 + arr[i] % 7
    end
  end
  return s1, s2, s3, s4
end

print(string.format("s1 = %d, s2 = %d, s3 = %d, s4 = %d", run(10000, 5000, 200)))
