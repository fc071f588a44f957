local function f(n)
  if n == 0 then return "zero" end
  do return "nonzero", n end
end
print(f(0)); print(f(3))
local function g() return end
print(g(), select("#", g()))
