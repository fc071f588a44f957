local function get() return math.random and 5 end
local x <const> = get()
print(x)
local y <const> = {}
print(type(y))
