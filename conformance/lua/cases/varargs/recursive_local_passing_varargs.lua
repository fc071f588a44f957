-- A local function calling itself with "..." as its last argument, as a
-- statement and for its results, and the names tracebacks give it.
local function f(...) if select('#', ...) > 3 then return end f(1, ...) end
f()
local function p(x, ...) if x then print(x) p(...) end end
p(1, 2, 3)
local function q(n, ...) if n == 0 then error("deep") end q(n - 1, ...) end
print(pcall(q, 3, "a"))
local function r(n, ...) if n == 0 then return ... end local a, b = r(n - 1, ...) return a, b end
print(r(3, "x", "y"))
local function s(n, ...) if n == 0 then error("boom") end local t = {s(n - 1, ...)} return t end
print(pcall(s, 2, 1))
local function u(n) if n == 0 then local x = nil; return x.y end u(n - 1) end
print(pcall(u, 2))
local function v(n, ...) if n == 0 then local x = nil; return x.y end v(n - 1, ...) end
print(pcall(v, 2))
print(select(2, xpcall(v, function(m) return "handled: " .. m end, 2)))
print(coroutine.wrap(function() p(4, 5) local ok, e = pcall(v, 1) return e end)())
