-- Integer loops with constant steps other than 1, up and down, empty, at the
-- integer limits, and with a float start or a string start (not a fast path).
local function walk(a, b, s)
  local out = {}
  for i = a, b, s do out[#out + 1] = i end
  return table.concat(out, ",")
end
local function down(n) local t = {} for i = n, 1, -1 do t[#t+1] = i end return #t, t[1], t[#t] end
local function by(n) local c = 0 for i = n, 1, -3 do c = c + i end return c end
local function up(n) local c = 0 for i = 1, n, 2 do c = c + i end return c end
for _, n in ipairs({-3, -1, 0, 1, 2, 5, 6, 7, 1000, 5000}) do
  print(n, down(n), by(n), up(n), by(n + 0.0), up(n + 0.5))
end
print(walk(10, 1, -4), walk(1, 10, 4), walk(math.maxinteger - 2, math.maxinteger, 1), walk(math.mininteger + 2, math.mininteger, -1))
print(walk(math.mininteger, math.mininteger + 10, 5), walk(3, 3, -7), walk(3, 4, -7))
print(pcall(walk, 1, 2, 0))
print(pcall(walk, "1", 2, -1))
