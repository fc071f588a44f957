local function helper(x) return coroutine.yield(x * 10) end
local co = coroutine.wrap(function(x) local y = helper(x); local z = helper(y); return "end", z end)
print(co(1))
print(co(2))
print(co(3))
