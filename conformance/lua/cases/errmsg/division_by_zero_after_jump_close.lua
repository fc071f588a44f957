-- An integer division by zero names the line of the last instruction that
-- saved Lua's position.  A break or goto leaving the scope of a captured
-- or to-be-closed local closes it where it lands (at a loop's end or the
-- label), and a backward goto out of a local's scope closes at the goto;
-- a while loop's normal exit passes no such close, a for loop's does.
local function f(n)
  for i = 1, 3 do
    if i == 1 then break end
    local g = function() return i end
  end
  return n // n
end
print(pcall(f, 0))

local function g(n)
  local k = 0
  while true do
    local c = k
    local h = function() return c end
    k = k + 1
    if k > 2 then break end
  end
  return n // n
end
print(pcall(g, 0))

local function h(n)
  local k = 0
  while true do
    k = k + 1
    if k > 2 then break end
    local c = k
    local h = function() return c end
  end
  return n // n
end
print(pcall(h, 0))

local function r(n)
  local k = 0
  repeat
    local c = k
    k = k + 1
    if k > 5 then break end
    local h = function() return c end
  until k > 2
  return n % n
end
print(pcall(r, 0))

local function gt(n)
  do
    local c = 1
    local h = function() return c end
    if n == 0 then goto out end
    c = 2
  end
  ::out::
  return n % n
end
print(pcall(gt, 0))

local function gen(n)
  for _, v in ipairs({1, 2}) do
    local h = function() return v end
    if v then break end
  end
  return n % n
end
print(pcall(gen, 0))

local function noclose(n)
  for i = 1, 2 do
    if i == 1 then break end
  end
  return n % n
end
print(pcall(noclose, 0))
local function a(n)
  for i = 1, 3 do
    if i == 1 then break end
    local x = i
    local g = function() return x end
  end
  return n // n
end
print(pcall(a, 0))

local function b(n)
  for i = 1, 3 do
    local x = i
    local f = function() return x end
    if i == 2 then goto continue end
    ::continue::
  end
  return n // n
end
print(pcall(b, 0))

local function c(n)
  local k = 0
  ::top::
  do
    local y = k
    k = k + 1
    if k < 3 then goto top end
  end
  return n // n
end
print(pcall(c, 0))

local function d(n)
  local k = 0
  ::top::
  k = k + 1
  if k < 3 then goto top end
  return n // n
end
print(pcall(d, 0))

local function e(n)
  for i = 1, 2 do
    for j = 1, 2 do
      local h = function() return j end
      if j == 1 then break end
    end
    if i == 1 then break end
  end
  return n % n
end
print(pcall(e, 0))

local function f(n)
  local k = 0
  repeat
    local c = k
    local h = function() return c end
    k = k + 1
    if k > 1 then break end
  until k > 5
  return n % n
end
print(pcall(f, 0))

local function g(n)
  while true do
    do
      local z = 1
      local h = function() return z end
      if n == 0 then goto out end
    end
  end
  ::out::
  return n % n
end
print(pcall(g, 0))

local function h(n)
  for i = 1, 2 do
    local h = function() return i end
  end
  return n % n
end
print(pcall(h, 0))

local function k(n)
  local t = 0
  while t < 2 do
    t = t + 1
    local q = t
    if q == 5 then
      local w = function() return q end
      break
    end
  end
  return n % n
end
print(pcall(k, 0))
local function a(n)
  for _, v in ipairs({1, 2}) do
    if v == 1 then goto out end
  end
  ::out::
  return n // n
end
print(pcall(a, 0))

local function b(n)
  do
    local x <close> = nil
    if n == 0 then goto out end
  end
  ::out::
  return n // n
end
print(pcall(b, 0))

local function c(n)
  while true do
    local x <close> = setmetatable({}, {__close = function() end})
    if n == 0 then break end
  end
  return n // n
end
print(pcall(c, 0))

local function d(n)
  for i = 1, 3 do
    do local x = i; local f = function() return x end; if i == 2 then goto continue end end
    ::continue::
  end
  return n % n
end
print(pcall(d, 0))
