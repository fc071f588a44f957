local z
local function f() return z.k end
f()
