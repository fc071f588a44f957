-- Arguments passed on by tail calls: varargs, extra and missing arguments.
local X, Y, A
local function foo(x, y, ...) X = x; Y = y; A = {...} end
local function foo1(...) return foo(...) end
foo1()
print(X, Y, #A)
foo1(10)
print(X, Y, #A)
foo1(10, 20, 30, 40)
print(X, Y, #A, A[1], A[2])

local function two(a, b) return a, b end
local function more(...) return two(...) end
print(more(1, 2, 3, 4))
print(more())

local function pass_all(n, ...)
  if n == 0 then return select("#", ...), ... end
  return pass_all(n - 1, ...)
end
print(pass_all(50000, "x", nil, "z"))

local function first_of(f, ...) return (f(...)) end   -- not a tail call: one result
print(first_of(two, 7, 8))
local function paren() return (two(5, 6)) end
print(paren())
