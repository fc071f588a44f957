-- Metamethods run from plain forms (a Lua function handling a table runs
-- without the operation's generator) against the generator forms (the same
-- program inside a coroutine): every event, handlers with fewer or more
-- parameters than they are given, handlers on either operand, handlers that
-- are not Lua functions, false handlers, errors and tracebacks inside them,
-- yields inside them in a coroutine, and recursion through them to the
-- stack's limit.
local V = {}
V.__index = V
local function vec(x, y) return setmetatable({x = x, y = y}, V) end
V.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
V.__sub = function(a, b) return vec(a.x - b.x, a.y - b.y) end
V.__mul = function(a, b)
  if type(a) == "number" then return vec(a * b.x, a * b.y) end
  if type(b) == "number" then return vec(a.x * b, a.y * b) end
  return a.x * b.x + a.y * b.y
end
V.__unm = function(a) return vec(-a.x, -a.y) end
V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
V.__lt = function(a, b) return a.x < b.x end
V.__le = function(a, b) return a.x <= b.x end
V.__len = function(a) return 2 end
V.__concat = function(a, b)
  local function s(v) return type(v) == "table" and ("(" .. v.x .. "," .. v.y .. ")") or tostring(v) end
  return s(a) .. s(b)
end
V.__tostring = function(a) return "vec" .. a.x .. "," .. a.y end
V.__idiv = function(a, b) return "idiv" end
V.__band = function(a, b) return "band" end
V.__shl = function(a, b) return "shl" end
V.__bnot = function(a) return "bnot" end
V.__mod = function(a, b) return "mod" end
V.__pow = function(a, b) return "pow" end
V.__div = function(a, b) return "div" end
local a, b = vec(1, 2), vec(3, 4)
put(tostring(a + b), tostring(a - b), a * b, tostring(2 * a), tostring(a * 3), tostring(-a))
put(a == b, a == vec(1, 2), a ~= vec(1, 2), a < b, b < a, a <= b, a > b, a >= b)
put(#a, a .. b, a .. "!", "!" .. a, 1 .. a, a .. b .. "?")
put(a // b, a & 1, 1 << a, ~a, a % 2, a ^ 2, a / 2)
-- handlers' parameters: fewer and more than the operation passes
local few = setmetatable({}, {__len = function() return "len" end, __add = function() return "add" end,
  __index = function() return "index" end, __newindex = function() end, __lt = function() return 1 end,
  __concat = function(x) return "concat" end, __unm = function() return "unm" end})
put(#few, few + 1, 1 + few, few.anything, few[1], few < few, few .. "x", "x" .. few, -few)
few.stored = 1
put(rawget(few, "stored"))
local many = setmetatable({}, {__len = function(x, y, z) return select("#", x, y, z), x == y, z end,
  __index = function(t, k, extra) return k, extra end, __add = function(x, y, z) return z end})
put(#many, many.key, many + 1)
-- results: none, several, false and nil for comparisons
local results = setmetatable({}, {__add = function() end, __sub = function() return 1, 2, 3 end,
  __lt = function() return nil end, __le = function() return false end, __eq = function() return 0 end,
  __len = function() end, __index = function() return end, __concat = function() return nil, 1 end})
local other = setmetatable({}, getmetatable(results))
put(results + 1, results - 1, results < other, results <= other, results == other, #results, results.k, results .. "x")
-- the handler found on the right operand, and on neither
local plain = {}
put(pcall(function() return plain + a end))
put(pcall(function() return plain < a end))
put(pcall(function() return plain .. a end))
put(pcall(function() return plain + {} end))
put(pcall(function() return plain < {} end))
put(pcall(function() return #nil end))
-- handlers that are not Lua functions: host functions, callable tables, false
local host = setmetatable({}, {__index = rawget, __len = rawlen, __concat = rawequal, __eq = rawequal})
put(host.x, #host, host .. host, host == setmetatable({}, getmetatable(host)))
local callable = setmetatable({}, {__call = function(self, t, k) return "called " .. tostring(k) end})
local via = setmetatable({}, {__index = callable, __add = callable, __lt = callable})
put(via.x, pcall(function() return via + 1 end))
put(pcall(function() return via < via end))
local falsy = setmetatable({}, {__add = false, __lt = false, __index = false, __len = false})
put(pcall(function() return falsy + 1 end))
put(pcall(function() return falsy < falsy end))
put(pcall(function() return falsy.x end))
put(pcall(function() return #falsy end))
-- __index and __newindex through chains ending in a function
local base = setmetatable({}, {__index = function(t, k) return "base " .. k end})
local mid = setmetatable({}, {__index = base})
local top = setmetatable({}, {__index = mid})
put(top.a, top[1], rawget(top, "a"))
local log = {}
local guarded = setmetatable({}, {__newindex = function(t, k, v) log[#log + 1] = tostring(k) .. "=" .. tostring(v); rawset(t, k, v) end})
guarded.a = 1; guarded.a = 2; guarded[1] = "x"; guarded[1] = "y"
put(table.concat(log, " "), guarded.a, guarded[1])
local chained = setmetatable({}, {__newindex = guarded})
chained.z = 26
put(table.concat(log, " "), rawget(chained, "z"), rawget(guarded, "z"))
-- errors inside handlers, positioned, and their tracebacks' names
local bad = setmetatable({}, {__add = function(x, y) error("no add") end,
  __index = function(t, k) error("no " .. k, 2) end,
  __lt = function() local n = nil; return n.field end,
  __len = function() return debug.traceback("tb", 1) end})
put(pcall(function() return bad + 1 end))
put(pcall(function() return bad.key end))
put(pcall(function() return bad < bad end))
local tb = #bad
put(tb:match("^[^\n]*\n[^\n]*\n[^\n]*"))
-- yields inside handlers, inside a coroutine
local yielding = setmetatable({}, {__add = function(x, y) return coroutine.yield("from add") end,
  __index = function(t, k) return coroutine.yield("from index " .. k) end})
local co = coroutine.wrap(function() local s = yielding + 1 local t = yielding.k return s, t end)
put(co(), co("sum"), co("field"))
-- recursion through handlers ends in an error
local deep = setmetatable({}, {})
getmetatable(deep).__index = function(t, k) return t[k] end
local ok, err = pcall(function() return deep.x end)
put(ok, (tostring(err):gsub("^.-:%d+: ", "")))
local deeper = setmetatable({}, {})
getmetatable(deeper).__add = function(x, y) return x + y end
ok, err = pcall(function() return deeper + 1 end)
put(ok, (tostring(err):gsub("^.-:%d+: ", "")))
-- a metatable changed between uses
local mt = {__add = function() return "first" end}
local changing = setmetatable({}, mt)
put(changing + 1)
mt.__add = function() return "second" end
put(changing + 1)
mt.__add = nil
put(pcall(function() return changing + 1 end))
return transcript()
