-- both operands of > and >= are evaluated left to right before comparing
local log = {}
local function v(name, x) log[#log + 1] = name; return x end
print(v("a", 1) > v("b", 2), v("c", 3) >= v("d", 3), v("e", 1) < v("f", 2))
print(table.concat(log, " "))
print(pcall(function() return (true / select("#", (# true))) > (math.type(1) & 1) end))
print(pcall(function() local t = {} return (1 % t) > (2 % (t | 0.5)) end))
print(pcall(function() local t = {} if (t .. "x") >= (t + 1) then return 1 end end))
