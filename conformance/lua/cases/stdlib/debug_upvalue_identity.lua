-- Closures of one variable share its upvalue, even when it is never assigned.
local a, b = 3, 5
local f1 = function () return a + b end
local f2 = function () return b + a end
local f3
do
  local a = 10
  f3 = function () return a + b end
end
print(debug.upvalueid(f1, 1) == debug.upvalueid(f2, 2), debug.upvalueid(f1, 2) == debug.upvalueid(f2, 1))
print(debug.upvalueid(f1, 1) == debug.upvalueid(f3, 1), debug.upvalueid(f1, 2) == debug.upvalueid(f3, 2))
print(debug.upvalueid(f1, 3), debug.upvalueid(string.gmatch("x", "x"), 1) ~= nil)

-- setupvalue through one closure changes what all of them see
debug.setupvalue(f2, 1, 50)
print(f1(), f2(), f3(), b)

-- each loop iteration has its own variable; closures of one iteration share it
local fs = {}
for i = 1, 2 do
  local x = i * 10
  fs[#fs + 1] = function () return x end
  fs[#fs + 1] = function () return x + 1 end
end
print(debug.upvalueid(fs[1], 1) == debug.upvalueid(fs[2], 1), debug.upvalueid(fs[1], 1) == debug.upvalueid(fs[3], 1))

-- upvaluejoin makes one closure use another's upvalue
debug.upvaluejoin(fs[1], 1, fs[3], 1)
print(fs[1](), fs[2](), fs[3]())
print(pcall(debug.upvaluejoin, print, 1, fs[1], 1))

-- a recursive local function seen by others
local function fact (n) if n <= 1 then return 1 end return n * fact(n - 1) end
local g = function () return fact end
print(fact(5), debug.upvalueid(fact, 1) == debug.upvalueid(g, 1))
