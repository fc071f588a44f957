-- table.insert / table.remove: appending, popping from the end, inserting
-- and removing at the front and in the middle, and a stack/queue workload.
local function run(rounds)
  local check = 0
  for r = 1, rounds do
    local t = {}
    for i = 1, 200 do
      table.insert(t, i * r % 1009)
    end
    for i = 1, 10 do
      table.insert(t, 1, i)
      table.insert(t, #t // 2, i * 2)
    end
    for i = 1, 10 do
      check = check + table.remove(t, 1)
      check = check + table.remove(t, #t // 2) * 3
    end
    while #t > 0 do
      local v = table.remove(t)
      if v % 5 == 0 then
        check = check + v
      end
    end
    check = check % 1000000007
  end
  return check
end

local function stack_queue(n)
  local stack, queue, qhead = {}, {}, 1
  local acc = 0
  for i = 1, n do
    stack[#stack + 1] = i
    table.insert(queue, i * 2)
    if i % 3 == 0 then
      acc = acc + table.remove(stack) - queue[qhead]
      qhead = qhead + 1
    end
  end
  return acc, #stack, #queue - qhead + 1
end

local check = run(2500)
local acc, left, queued = stack_queue(1000000)
print(string.format("check = %d, acc = %d, left = %d, queued = %d", check, acc, left, queued))
