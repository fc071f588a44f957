-- Line events of loops written on one line: Lua's loop jumps back, so each
-- new iteration is an event of that line again (a coverage tool counts
-- how often each line runs).
local counts = {}
local function count_lines(f, ...)
  counts = {}
  debug.sethook(function (_, line) counts[#counts + 1] = line end, 'l')
  local result = f(...)
  debug.sethook()
  return result, table.concat(counts, ' ')
end

local function halve(a) while a > 100 do a = a // 2 end return a end
local function countdown(a) repeat a = a - 1 until a < 3 return a end
local function first_one(a) while a > 0 do a = a - 1; if a == 1 then break end end return a end
local function sum(n) local s = 0 for i = 1, n do s = s + i end return s end
local function size(t) local n = 0 for _ in pairs(t) do n = n + 1 end return n end
local function words(s) local n = 0 for _ in s:gmatch('%a+') do n = n + 1 end return n end

print(count_lines(halve, 466))
print(count_lines(countdown, 6))
print(count_lines(first_one, 4))
print(count_lines(sum, 3))

-- An endless loop's head has no test, so no event of its own.
local function drain(queue)
  local n = 0
  while true do
    if #queue == 0 then break end
    n = n + table.remove(queue)
  end
  return n
end
print(count_lines(drain, {1, 2}))
print(count_lines(size, {x = 1, y = 2, z = 3}))
print(count_lines(words, 'one two'))
