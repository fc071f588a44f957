local N <const> = 10
local S <const> = "str"
local T <const> = {1, 2}
T[1] = 100
print(N * 2, S .. "!", T[1])
local function f() return N + 1, S end
print(f())
