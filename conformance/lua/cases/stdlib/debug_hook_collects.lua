-- A hook that collects garbage (a profiler that samples memory) must leave
-- the running code's call in place: the function called and the arguments
-- of a call whose line just began.
local calls = {}
local weak = setmetatable({}, {__mode = 'k'})   -- makes collections visible
weak[{}] = true

debug.sethook(function (event)
  collectgarbage()
  if event == 'call' then
    local f = debug.getinfo(2, 'f').func
    calls[#calls + 1] = f ~= nil
  end
end, 'crl')

function greet(who, punctuation)
  return 'hello ' .. who .. punctuation
end

local function join(a, b, c)
  return a .. b .. c
end

local s = join('x',
  greet('lua', '!'),
  'y')
local t = greet(
  'world', '?')
debug.sethook()

print(s, t)
local missing = 0
for _, found in ipairs(calls) do
  if not found then missing = missing + 1 end
end
print('calls without a function:', missing)
