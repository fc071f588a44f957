local k = 1
local function touch() k = 5 end
local m = {}
m[k], k = 1, 2
print(m[1], m[2], m[5], k)
local a = {}
local b = a
local function swap() a = {} end
a[1], a = (function() swap() return 'v' end)(), 3
print(b[1], a)
local big = {}
local oldbig = big
local function h()
  local function f() big = {}; return 1 end
  big.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa = f()
  big.s = f()
  return big
end
local r = h()
print(oldbig.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, oldbig.s, r.s)
local t = {}
local i = 1
local function bump() i = i + 1; return i end
t[i], t[i+1], i = bump(), bump(), 10
print(t[1], t[2], t[3], t[4], i)
local function g()
  local x, y = {}, {}
  local function s() x, y = y, x; return 1 end
  x[1], y[1], x, y = s(), s(), x, y
  return x[1], y[1]
end
print(g())
