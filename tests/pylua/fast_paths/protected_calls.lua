-- pcall's plain form (a run nothing can suspend) against its generator form
-- (the same program inside a coroutine): Lua and host callees, callable
-- tables, errors of every kind of value, positioned and not, arguments past
-- the callee's parameters, tail calls out of the callee, pending to-be-closed
-- variables, nesting, error handlers around it, and the C stack's limit.
local Account = {}
Account.__index = Account
function Account.new(b) return setmetatable({balance = b}, Account) end
function Account:withdraw(n)
  if n > self.balance then error("insufficient funds", 2) end
  self.balance = self.balance - n
  return self.balance
end
local acc = Account.new(10)
put(pcall(acc.withdraw, acc, 3))
put(pcall(acc.withdraw, acc, 30))
put(pcall(Account.withdraw, nil, 1))
put(pcall(function(a, b) return a, b end, 1, 2, 3, 4))
put(pcall(function(...) return select('#', ...), ... end, nil, nil))
put(pcall(function() end))
put(select('#', pcall(function() return end)))
put(pcall(function() return string.rep("ab", 2) end))
put(pcall(string.rep, "x", 3))
put(pcall(string.rep))
put(pcall(setmetatable({}, {__call = function(self, x) return "called", x end}), 7))
put(pcall({}))
put(pcall(nil, 1))
local E = setmetatable({}, {__tostring = function() return "E" end})
local ok, e = pcall(error, E)
put(ok, e == E, tostring(e))
put(pcall(error))
put(pcall(error, nil))
put(pcall(error, 42))
put(pcall(error, "plain", 0))
put(pcall(error, "one level"))
put(pcall(function() error("two levels", 2) end))
put(pcall(function() local x = nil; return x.field end))
put(pcall(function() return 1 + {} end))
-- the callee's tail calls
local function last(n) if n == 0 then return "done", n end return last(n - 1) end
put(pcall(last, 50))
put(pcall(function() return tostring(12) end))
-- to-be-closed variables the error leaves to the protected call
local log = {}
local function closer(name) return setmetatable({}, {__close = function(_, err) log[#log + 1] = name .. ":" .. tostring(err) end}) end
put(pcall(function()
  local a <close> = closer("a")
  local b <close> = closer("b")
  error("boom", 0)
end))
put(table.concat(log, " "))
log = {}
put(pcall(function()
  local a <close> = setmetatable({}, {__close = function() error("in close", 0) end})
  error("first", 0)
end))
put(pcall(function()
  local c <close> = closer("c")
  return "kept"
end))
put(table.concat(log, " "))
-- nested, and inside xpcall
put(pcall(pcall, error, "inner"))
put(pcall(pcall))
put(xpcall(function() return pcall(error, "x") end, debug.traceback))
put(xpcall(function() error("y", 0) end, function(m) return "handled " .. m end))
put(pcall(xpcall, error, function(m) return "h:" .. tostring(m) end, "z"))
put(xpcall(function(a, b) return a + b end, print, 1, 2))
put(xpcall(function() local t = nil; return t.x end, function(m) return (debug.traceback(m, 2):match("^[^\n]*\n[^\n]*\n[^\n]*"):gsub("<.-:(%d+)>", "<%1>")) end))
put(xpcall(error, function(m) error("again") end, "first"))
put(xpcall(error, function(m) return type(m), "dropped" end, {}))
put(pcall(xpcall, function() end))
put(xpcall(function() local c <close> = closer("x") error("with close", 0) end, function(m) return "h " .. m end))
put(table.concat(log, " "))
-- a recursion through pcall ends at the C stack's limit
local depth = 0
local function dive() depth = depth + 1; local ok, err = pcall(dive); if not ok then error(err, 0) end end
local ok2, err2 = pcall(dive)
put(ok2, err2, depth > 150)
-- the error keeps working after the limit was reached
put(pcall(error, "after"))
-- a library callback calling pcall
put(string.gsub("a,b", "%a", function(c) return select(2, pcall(string.upper, c)) end))
local sorted = {3, 1, 2}
table.sort(sorted, function(x, y) local ok, r = pcall(function() return x < y end) return r end)
put(table.concat(sorted, ","))
-- a replaced pcall is called, not the library's
local real = pcall
pcall = function(f, ...) return "replaced", f(...) end
put(pcall(function(x) return x * 2 end, 21))
pcall = real
put(pcall(function(x) return x * 2 end, 21))
return transcript()
