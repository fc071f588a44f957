-- A return of a call is a tail call in a function that has to-be-closed
-- variables, once they are closed, and in a function that uses goto;
-- in the scope of a to-be-closed variable it is no tail call.
local function count(n)
  do local guard <close> = nil end
  if n == 0 then return "closed, then 300000 tail calls" end
  return count(n - 1)
end
print(count(300000))

local function skip(n)
  ::again::
  if n % 10 == 5 then n = n - 1; goto again end
  if n == 0 then return "goto, then tail calls" end
  return skip(n - 1)
end
print(skip(300000))

local function lvl() error("level 2", 2) end
local function via_goto(n) ::a:: if n > 0 then n = n - 1; goto a end return lvl() end
local function caller() local r = via_goto(2); return r end
print(pcall(caller))
local function via_close()
  local c <close> = setmetatable({}, {__close = function() print("closed after the call") end})
  return lvl()
end
print(pcall(via_close))

local function deep(n)
  local c <close> = nil
  if n == 0 then return 0 end
  return deep(n - 1)
end
print(pcall(deep, 100))
