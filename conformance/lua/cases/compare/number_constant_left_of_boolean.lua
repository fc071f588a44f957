-- A number constant on the left of == or ~= compared with a boolean: the
-- integer fast path looked at the constant's type, not the other operand's
-- (Python's True == 1).  (Found by the campaign.)
local function f(p, q) return (1 ~= (p <= q)), (1 == (p <= q)), (0 == (p > q)), ((p <= q) == 1), (1.0 ~= (p <= q)) end
print(f(1, 2))
local b = true
print(1 ~= b, 1 == b, b == 1)
local n = 1
print(1 == n, n ~= 1, 0 == (n > 2), 1.0 == (n < 2))
