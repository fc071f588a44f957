math.randomseed(42)
local a = {math.random(1, 100), math.random(1, 100), math.random(1, 100)}
print(table.concat(a, " "))
math.randomseed(42)
local b = {math.random(1, 100), math.random(1, 100), math.random(1, 100)}
print(table.concat(b, " "), a[1] == b[1] and a[2] == b[2] and a[3] == b[3])
