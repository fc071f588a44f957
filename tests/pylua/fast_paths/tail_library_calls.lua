-- Library calls in tail position (`return f(...)`), inline forms and host
-- functions, which return one result as a Lua function's return does:
-- bare.  Counted
-- with select('#'), used as one value and as all of a call's arguments,
-- with arguments the inline forms leave to the library, and after the
-- library functions are replaced.
local Point = {}
Point.__index = Point
function Point.new(x) return setmetatable({x = x}, Point) end
function Point:show() return tostring(self.x) end
local function kind(v) return type(v) end
local function part(s, i, j) return s:sub(i, j) end
local function rest(s, i) return s:sub(i) end
local function code(s, i) return s:byte(i) end
local function size(s) return string.len(s) end
local function pop(t) return table.remove(t) end
local function joined(t, sep) return table.concat(t, sep) end
local function num(s) return tonumber(s) end
local function root(x) return math.sqrt(x) end

local p = Point.new(3)
put(getmetatable(p) == Point, p.x, p:show(), Point.new(2.5):show(), select('#', Point.new(1)))
put(kind(nil), kind(p), kind("s"), kind(1.5), select('#', kind(1)))
put(part("hello", 2, 3), part("hello", -3, -1), part("hello", 0), rest("hello", 3), rest("hello", -2))
put(code("abc", 2), code("abc", 9), select('#', code("abc", 9)), code("abc", -1))
put(size("four"), pop({1, 2, 3}), pop({}), select('#', pop({})), joined({"a", 1, 2.5}, "-"), joined({}))
put(num("12"), num(" 0x10 "), num("z"), select('#', num("z")), root(16), root(2))
put(pcall(part, nil, 1, 2))
put(pcall(size, {}))
put(pcall(joined, {{}}))
put(pcall(Point.new, 1), pcall(function() return setmetatable(1, Point) end))
-- an object already with a metatable, a protected one and a class with __gc
put(pcall(function() return setmetatable(setmetatable({}, {__metatable = "locked"}), Point) end))
local again = setmetatable(Point.new(7), {__index = Point, __name = "other"})
put(again.x, again:show(), getmetatable(again) ~= Point)
local function gc_class() return setmetatable({}, {__gc = function() end}) end
put(type(gc_class()))
-- inside a coroutine (the generator forms)
local co = coroutine.wrap(function(s)
  local a = Point.new(coroutine.yield(kind(s)))
  return part(s, 1, 2), a.x, size(s)
end)
put(co("yield"))
put(co(42))
-- the library replaced: the same call sites call the new functions
local saved_type, saved_sub, saved_smt = type, string.sub, setmetatable
type = function(v) return "mine", v end
string.sub = function(s, i, j) return "sub", s, i, j end
setmetatable = function(t, m) return "smt", m == Point end
put(kind(1))
put(part("hello", 1, 2))
put(Point.new(5))
type, string.sub, setmetatable = saved_type, saved_sub, saved_smt
-- host functions without an inline form: none, one and several results
local function upper(s) return string.upper(s) end
local function subst(s) return s:gsub("a", "b") end
local function unpacked(t) return table.unpack(t) end
local function picked(...) return select(2, ...) end
put(upper("ab"), select('#', upper("ab")), subst("aab"), select('#', subst("x")))
put(select('#', unpacked({})), unpacked({1, 2, 3}), select('#', unpacked({nil})), unpacked({"one"}))
put(select('#', picked("a")), picked("a", "b"), select('#', picked("a", nil)))
put(pcall(upper, {}))
local yields = coroutine.wrap(function(v) return coroutine.yield(upper(v)) end)
put(yields("up"))
put(yields("back", 2))
put(kind(1), part("hello", 1, 2), Point.new(5).x)
return transcript()
