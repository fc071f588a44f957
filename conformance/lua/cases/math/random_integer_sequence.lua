math.randomseed(2024)
local t = {}
for i = 1, 10 do t[i] = math.random(1, 1000) end
print(table.concat(t, ","))
math.randomseed(0)
print(math.random(100), math.random(100), math.random(100))
