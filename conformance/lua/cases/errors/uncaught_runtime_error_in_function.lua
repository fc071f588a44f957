-- (one line: lua5.4.4 reports a stale line for integer division by zero)
local function divide(a, b) return a // b end
print(divide(7, 2))
print(divide(1, 0))
