local calls = 0
local function f(v) calls = calls + 1; return v end
local r = f(false) and f(1)
print(r, calls)
r = f(1) or f(2)
print(r, calls)
r = f(nil) or f(false) or f("last")
print(r, calls)
