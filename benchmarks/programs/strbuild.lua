-- String building: string.format with %d %5d %x %s %.3f, concatenation
-- with .., tostring, and table.concat of many pieces (with a separator too).
local function run(n)
  local parts = {}
  for i = 1, n do
    parts[#parts + 1] = string.format("%d:%5d:%x:%s:%.3f;", i, i * 7 % 1000, i, "k" .. (i % 10), i / 7)
  end
  local s = table.concat(parts)

  local words = {}
  for i = 1, n do
    words[i] = "w" .. tostring(i % 100) .. "_" .. (i % 3)
  end
  local joined = table.concat(words, ", ")

  local total = 0
  for round = 1, 300 do
    local line = ""
    for i = 1, 200 do
      line = line .. i .. ","
    end
    total = total + #line
  end
  return s, joined, total
end

local s, joined, total = run(200000)
print(string.format("len = %d, joined = %d, total = %d, sample = %s | %s",
  #s, #joined, total, s:sub(100001, 100040), joined:sub(-30)))
