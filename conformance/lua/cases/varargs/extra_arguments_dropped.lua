-- Calls passing more arguments than a function has parameters: the extras
-- are dropped at every kind of call site.
local function one(a) return a end
local function none() return "none" end
local function tail(...) return one(...) end
local function self_call(n, acc) if n == 0 then return acc end return self_call(n - 1, (acc or 0) + n, "extra") end
print(one(1, 2, 3), none(1, 2), tail(4, 5), self_call(4))
local obj = {}
function obj.m(self) return self == obj end
print(obj:m(1, 2, 3))
local mt = {__index = function(t) return "meta" end, __call = function(self) return "called" end,
            __add = function() return 42 end, __eq = function() return true end}
local p = setmetatable({}, mt)
print(p.anything, p(1, 2, 3), p + 1)
local n, seen = 0, {}
for v in function() n = n + 1 if n <= 3 then return n end end do seen[#seen + 1] = v end
print(table.concat(seen, " "))
local co = coroutine.wrap(function(a) local b = coroutine.yield(a) return b end)
print(co(5, 6), co(7, 8))
print(pcall(function() return "p" end, 1, 2))
local t = {3, 1, 2}
table.sort(t, function(a) return false end)
print(#t, (("abc"):gsub("%w", function() return "x" end)))
print(select("#", one(nil, nil)), select("#", none(1)))
