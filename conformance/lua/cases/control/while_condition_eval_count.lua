local n = 0
local function cond() n = n + 1; return n <= 3 end
while cond() do end
print(n)
