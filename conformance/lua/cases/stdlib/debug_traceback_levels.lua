-- Tracebacks and levels: Lua and library functions, named as Lua names them.
local Account = {}
Account.__index = Account

function Account.new(balance) return setmetatable({balance = balance}, Account) end

function Account:report()
  local tb = debug.traceback("report", 1)
  return tb
end

local helpers = {}
function helpers.run(f) local r = f(); return r end

function audit(acct)
  local function inner() local r = acct:report(); return r end
  local r = helpers.run(inner)
  return r
end

print(audit(Account.new(10)))

-- library functions are levels of their own
local ok, tb = pcall(debug.traceback, "via pcall", 1)
print(ok, tb)
print(debug.getinfo(1, "S").what, debug.getinfo(0, "n").name)
local function who() return debug.getinfo(2, "Sn") end
local info = select(2, pcall(who))
print(info.what, info.name, info.source)

-- a suspended coroutine's stack
local function descend(n)
  if n == 0 then coroutine.yield("bottom") else descend(n - 1) end
end
local co = coroutine.create(descend)
print(coroutine.resume(co, 2))
print(debug.traceback(co))
print(debug.traceback(co, "from level 2", 2))
print(debug.getinfo(co, 0, "n").name, debug.getinfo(co, 1, "l").currentline)

-- a coroutine that died of an error keeps its stack for the debugger
local function fail(i)
  if i == 0 then error("deep") else coroutine.yield(); fail(i - 1) end
end
local co2 = coroutine.create(function (x) fail(x) end)
coroutine.resume(co2, 1)
print(coroutine.resume(co2))
print(debug.traceback(co2))
print(debug.getinfo(co2, 1, "l").currentline, debug.getlocal(co2, 2, 1))
