-- A table read from a captured local or an upvalue is read after its key is
-- evaluated (and a captured local's after an assigned value too), as
-- lcode.c's luaK_indexed orders them: a key whose code assigns the variable
-- changes which table is indexed.  Found by the differential campaign.
local t = {10}
local function g() t = "x" return 1 end
print(t[g()])
local u = {20}
local function h()
  local function k() u = "y" return 1 end
  return u[k()]
end
print(h())
local w = {30}
print(w[(function() w = {40} return 1 end)()])
local v = {50}
local function m() return v[(function() v = {60} return 1 end)()] end
print(m())
g1 = {70}
print(g1[(function() g1 = {80} return 1 end)()])
local z = {a = {1}}
print(z.a[(function() z.a = {90} return 1 end)()])
local a = {100}
local function sa() a[1] = (function() a = {200} return 5 end)() return a[1] end
print(sa(), a[1])
local b = {300}
local function sb()
  local function inner() b[(function() b = {400} return 1 end)()] = 7 end
  inner()
  return b[1]
end
print(sb())
