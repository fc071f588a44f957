local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
print(depth(150))
local function tail(n, acc) if n == 0 then return acc end return tail(n - 1, acc + 1) end
print(tail(10000, 0))
