-- Functions whose one hoisted guard is a table parameter, called with
-- tables and with everything else: the general body runs straight-line
-- code indexing the parameter three or more times without splitting on it
-- again, and must index strings, proxies and tables with metatables as the
-- specialised body and lua5.4 do, and name the parameter in errors.
local Point = {} Point.__index = Point
function Point:norm2() return self.x * self.x + self.y * self.y end
function Point:shift(d) self.x = self.x + d self.y = self.y + d return self.x, self.y end
local function lengths(s) return s.len, s.upper, s.rep, s:len() end

local p = setmetatable({x = 3, y = 4}, Point)
put(p:norm2(), p:shift(1), p:norm2())
put(Point.norm2({x = 1.5, y = 2}))
local proxy = setmetatable({}, {__index = function(t, k) return k == "x" and 2 or 5 end})
put(Point.norm2(proxy))
local log = {}
local guarded = setmetatable({}, {__index = function(t, k) return 10 end,
  __newindex = function(t, k, v) log[#log + 1] = k .. "=" .. v rawset(t, k, v) end})
put(Point.shift(guarded, 2), table.concat(log, ","))
local a, b, c, n = lengths("abc")
put(a == string.len, b == string.upper, c == string.rep, n)
put(pcall(lengths, {len = 1, upper = 2, rep = 3}))
put(pcall(Point.norm2, "xy"))
put(pcall(Point.norm2, 7))
put(pcall(Point.norm2, nil))
put(pcall(Point.shift, "xy", 1))
put(pcall(Point.shift, {x = 1}, 1))
put(pcall(lengths, 5))

-- Parameters compared with nil, a string or another parameter carry no
-- integer guard; compared with a number they do.
local function append(packet, queue)
  packet.link = nil
  if queue == nil then return packet end
  local last = queue
  while last.link ~= nil do last = last.link end
  last.link = packet
  return queue
end
local q = append({n = 1}, nil)
q = append({n = 2}, q) q = append({n = 3}, q)
put(q.n, q.link.n, q.link.link.n, q.link.link.link)
put(pcall(append, {}, 5))
local function kind(v, k) if v == "x" then return "x" elseif v == k then return "same" end return v ~= 0 and v end
put(kind("x"), kind(2, 2), kind(2.0, 2), kind(0), kind(0.0), kind(-0.0), kind("0"), kind(nil), kind(3, "3"))
-- Parameters read once, with no loop: a table gets no hoisted guard (the
-- general body alone), an integer still does.
local function getx(self) return self.x end
local function inc(n) return n + 1 end
local function both(n, t) local a = n * 2 return t[a] end
local Obj = setmetatable({}, {__index = function(_, k) return "meta " .. k end})
put(getx({x = 1}), getx(Obj), pcall(getx, 5), pcall(getx, nil), getx("s"))
put(inc(1), inc(1.5), inc("2"), inc(math.maxinteger), pcall(inc, {}), pcall(inc, nil))
put(both(1, {10, 20}), both(1.5, {[3.0] = "f"}), pcall(both, "x", {}), pcall(both, 1, 7))
return transcript()
