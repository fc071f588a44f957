-- An integer division by zero names the line of the last save on the path
-- the run took (found by the campaign: 930034358, 941002870).
-- 1. A save on a branch not taken.
local function branch(c, n)
  if c then
    print("called")
  end
  return 1 // n
end
print(pcall(branch, false, 0))
print(pcall(branch, true, 0))
-- 2. A save skipped by `or` (the call does not run).
local function skipped_call(a, n, ...)
  local v = (a or select("#", ...))
  return v % n
end
print(pcall(skipped_call, 1, 0))
print(pcall(skipped_call, nil, 0))
-- 3. An earlier iteration's save.
local function loop(n)
  local r = 0
  for i = 1, 3 do
    if i == 3 then r = r + 1 // n end
    r = r + select("#",
      i)
  end
  return r
end
print(pcall(loop, 0))
-- 4. while, break and an else branch.
local function while_loop(n)
  local i = 0
  while true do
    i = i + 1
    if i > 2 then
      break
    else
      tostring(i)
    end
  end
  return i // n
end
print(pcall(while_loop, 0))
-- 5. The iterator of a generic for saves at each call.
local function generic(n)
  local r = 0
  for _, v in ipairs({1, 2}) do
    r = r + v
    if v == 2 then return r % n end
    print(v)
  end
end
print(pcall(generic, 0))
-- 6. A goto back.
local function back(n)
  local i = 0
  ::again::
  i = i + 1
  if i == 2 then return i // n end
  print(i)
  goto again
end
print(pcall(back, 0))
-- 7. A missed read in an earlier iteration, a hit in the last.
local function missed(t, n)
  local r
  for i = 1, 2 do
    r = t[i]
    if i == 2 then return 1 // n end
  end
end
print(pcall(missed, {[2] = 1}, 0))
-- The same in a coroutine (the functions' other form).
coroutine.wrap(function()
  print(pcall(branch, false, 0))
  print(pcall(skipped_call, 1, 0))
  print(pcall(loop, 0))
  print(pcall(generic, 0))
  print(pcall(back, 0))
  print(pcall(missed, {[2] = 1}, 0))
end)()
