-- Loop variables the translator knows to be integers: ipairs indices,
-- numeric loops from a computed integer start, and loops that assign them.
local out = {}
local t = {10, 20, 30, nil, 50}
for i, v in ipairs(t) do out[#out + 1] = i * v end
for i, v in ipairs(t) do i = i + 0.5 out[#out + 1] = i end
local m = setmetatable({}, {__index = function(_, k) if k < 4 then return k * 100 end end})
for i, v in ipairs(m) do out[#out + 1] = v end
do
  local ipairs = function(x) return next, x, nil end
  local s = 0
  for k, v in ipairs({a = 1, b = 2, 3}) do s = s + v end
  out[#out + 1] = s
end
print(table.concat(out, " "))
out = {}
for i = 1, 2 do
  local s = i + 1
  for j = s, 3.5 do out[#out + 1] = math.type(j) .. j end
  for j = s, 3, 0.5 do out[#out + 1] = math.type(j) .. j end
  local f = 2.0 // 1
  for j = f, 3 do out[#out + 1] = math.type(j) .. j end
end
print(table.concat(out, " "))
local arr = {10, 20, 30, [7] = 70}
out = {}
for i = 1, 8 do out[#out + 1] = tostring(arr[i]) end
for i = 2, 9, 2 do arr[i] = i end
print(table.concat(out, " "), arr[2], arr[4], arr[6], arr[8])
local removed = {}
local walk = {1, 2, 3, 4, 5, 6}
for k, v in pairs(walk) do removed[#removed + 1] = k if k == 2 then walk[4] = nil walk[5] = nil end end
print(table.concat(removed, " "))
