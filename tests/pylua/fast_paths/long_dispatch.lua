-- A function with goto runs as a dispatch over its blocks; past 64 blocks
-- the dispatch tests a block's group first (an elseif chain of 1,500 arms
-- was too deep for Python's compiler).
local src = {'local n, out = ..., {}', 'local i = 0', '::s0::', 'i = i + 1'}
for k = 1, 200 do
  src[#src + 1] = ('if i %% %d == 0 then goto s%d end'):format(k % 7 + 2, k)
  src[#src + 1] = ('for j = 1, 2 do if j == 2 and i > n then goto done end end')
  src[#src + 1] = ('::s%d::'):format(k)
  src[#src + 1] = ('out[#out + 1] = %d'):format(k)
  src[#src + 1] = ('if #out > n * 3 then goto done end')
end
src[#src + 1] = 'if i < n then goto s0 end'
src[#src + 1] = '::done::'
src[#src + 1] = 'local x = #out if x == 0 then return 0'
for k = 1, 1500 do src[#src + 1] = ('elseif x == %d then return %d, i'):format(k, k * 2) end
src[#src + 1] = 'end return -1, i'
local f = assert(load(table.concat(src, '\n')))
for _, n in ipairs({1, 5, 50, 400}) do put(n, f(n)) end
put(coroutine.wrap(function() return f(7) end)())
return transcript()
