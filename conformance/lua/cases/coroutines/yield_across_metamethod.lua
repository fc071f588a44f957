local t = setmetatable({}, {__index = function(t, k) return coroutine.yield(k) end})
local co = coroutine.wrap(function() return "result: " .. t.foo end)
print(co())
print(co("bar"))
