math.randomseed(1)
local ok = true
for i = 1, 200 do
  local v = math.random(3, 5)
  if v < 3 or v > 5 or math.type(v) ~= "integer" then ok = false end
end
print(ok, math.random(1, 1), math.random(7, 7))
print(pcall(math.random, 2, 1))
print(pcall(math.random, 1, 2, 3))
print(pcall(math.random, 1.5))
