local function mk() return function() end end
local a, b = mk(), mk()
print(a == a, type(a), type(mk))
local t = {}
t[a] = 1
print(t[a], t[b])
