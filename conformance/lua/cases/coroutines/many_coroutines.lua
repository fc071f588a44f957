local cos = {}
for i = 1, 50 do cos[i] = coroutine.create(function(x) local y = coroutine.yield(x + 1); return y * 2 end) end
local sum = 0
for i = 1, 50 do local _, v = coroutine.resume(cos[i], i); sum = sum + v end
for i = 1, 50 do local _, v = coroutine.resume(cos[i], i); sum = sum + v end
print(sum)
