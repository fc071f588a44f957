-- debug.getinfo's 'f' at a coroutine's outermost level is the function the
-- coroutine was made of: while it runs, after a resume, while it is
-- suspended, and once it died of an error.
local function body()
  print('running', debug.getinfo(1, 'f').func == body)
  coroutine.yield(1)
  print('resumed', debug.getinfo(1, 'f').func == body)
  coroutine.yield(2)
  error('dead')
end
local co = coroutine.create(body)
print(coroutine.resume(co))
print('suspended', debug.getinfo(co, 1, 'f').func == body, debug.getinfo(co, 1, 'l').currentline)
print(coroutine.resume(co))
print(coroutine.resume(co))
print('dead', debug.getinfo(co, 1, 'f').func == body)
local function inner() coroutine.yield('in') return 'r' end
local function outer() return inner() end
local co2 = coroutine.create(outer)
print(coroutine.resume(co2))
local k = debug.getinfo(co2, 1, 'ft')
print('tail', k.func == inner, k.istailcall)
print(debug.traceback(co2, 'co2'))
local wrapped
wrapped = coroutine.wrap(function(...)
  print('wrapped', debug.getinfo(1, 'f').func ~= nil, select('#', ...))
end)
wrapped(1, 2)
