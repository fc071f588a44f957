x = 10
local x = 20
print(x, _G.x, _ENV.x)
_ENV.y = 5
print(y)
