-- A tail call replaces its caller: error levels skip the function that made it.
local function lvl()
  error("boom", 2)
end
local function via_tail()
  return lvl()
end
local function caller()
  local r = via_tail()     -- level 2 of lvl is here: via_tail is gone
  return r
end
print(pcall(caller))

local function not_tail()
  local r = lvl()          -- an ordinary call: level 2 is this line
  return r
end
print(pcall(not_tail))

local function lvl3() error("three", 3) end
local function t1() return lvl3() end
local function t2()
  local x = t1()           -- lvl3 replaced t1; level 2 is t2, level 3 is its caller
  return x
end
local function t3()
  local y = t2()
  return y
end
print(pcall(t3))

-- the message of a failing call inside a tail-called function names its own line
local function inner(t) return t.x.y end
local function outer(t) return inner(t) end
print(pcall(outer, {}))

-- a runtime error in tail position is raised where the tail call is
local function calls_nil()
  local missing
  return missing()
end
print(pcall(calls_nil))
