-- a local left operand is read when its operator runs, after the right
-- operand: a closure the right operand calls may assign it
local v = 1
local function bump() v = v + 10 return 5 end
local w
w = v + bump() print(w)
local t = {}
t.x = v + bump() print(t.x)
local z = v + bump() print(z)
print(v + bump(), v * bump(), (v) - bump())
print(1 + (v + bump()), v - (2 * (v + bump())))
if v < bump() * 100 then print("less", v) end
print(v == bump() + v - 5, v ~= bump())
local function g() return v + bump() end print(g())
-- through a metamethod the right operand runs
local mt = {__index = function(_, k) v = 0 return 7 end}
local o = setmetatable({}, mt)
v = 3 print(v + o.anything)
v = 3 print(v + (o.x * 2))
-- what is read before: an expression, a concatenation, call arguments
v = 1 print((v + 0) + bump(), v .. bump(), math.max(v, bump()))
-- an upvalue is read before the right operand, as Lua loads it then
local u = 1
local function h() local function inc() u = u + 100 return 1 end return u - inc() end
print(h())
