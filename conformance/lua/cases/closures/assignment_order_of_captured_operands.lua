local t = {1,2}
local function f() t = {10,20}; return 5 end
t[1], t[2] = f(), 2
print(t[1], t[2])
local x = 1
local function g() x = 7; return 3 end
local u = {}
u[x], x = g(), 2
print(u[1], u[7], x)
local a = {}
local i = 1
i, a[i] = i+1, 20
print(i, a[1], a[2])
