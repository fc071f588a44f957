local function f(...)
  local t = {...}
  return #t, t[1], t[#t]
end
print(f(5, 6, 7))
print(f())
local function g(...) return {n = select("#", ...), ...} end
local r = g("a", "b")
print(r.n, r[1], r[2])
