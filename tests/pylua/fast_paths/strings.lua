-- String intrinsics (s:sub, s:byte, string.len), string method lookups
-- and table.concat, each beside the general path: arguments the inline
-- forms leave to the library, errors, the library and the string
-- metatable changed while the program runs.
local function subs(s)
  for _, ij in ipairs({{1, 1}, {2, 4}, {0, 3}, {-3, -1}, {3, 2}, {5, 100}, {1, 0}, {-100, 2}, {2.0, 3}, {"2", "3"}}) do
    put(s:sub(ij[1], ij[2]), s:sub(ij[1]), string.sub(s, ij[1], ij[2]))
  end
  for i = -2, #s + 2 do put(s:byte(i), string.byte(s, i)) end
  put(s:byte(), string.len(s), #s, s:len())
end
subs("hello world")
subs("")
subs(("x"):rep(1100) .. "y")
put(pcall(string.sub, "abc", "x"))
put(pcall(function() return ("abc"):sub({}) end))
put(pcall(string.byte, "abc", 1.5))
put(pcall(string.len, 42), pcall(string.len))
local n = 12
put((n .. ""):len(), (1.5 .. "|"):sub(1, 3))
-- the library changed or the string metatable's __index changed
local original = string.sub
string.sub = function(s, i, j) return "replaced" end
put(("abc"):sub(1, 1), string.sub("abc", 1, 1))
string.sub = original
put(("abc"):sub(1, 1))
local meta = getmetatable("")
local index = meta.__index
meta.__index = {sub = function(s, i) return "own " .. i end, byte = index.byte}
put(("abc"):sub(2, 2), ("abc"):byte(1))
meta.__index = function(s, k) return function(self, i) return k .. i end end
put(("abc"):sub(3, 3), ("abc"):len(2))
meta.__index = index
put(("abc"):sub(3, 3))
debug.setmetatable("", nil)
put(pcall(function() local s = "abc" return s:sub(1, 1) end))
debug.setmetatable("", meta)
put(("abc"):sub(2, 3))
-- table.concat
put(table.concat({"a", "b"}), table.concat({"a", 1, 2.5}), table.concat({}, ","), table.concat({"x"}, ", "))
put(table.concat({"a", "b", "c"}, 1), table.concat({n = 1}), table.concat({"a", "b", "c"}, "-", 2))

put(pcall(table.concat, {"a", nil, "c"}))
put(pcall(table.concat, {"a", {}}), pcall(table.concat, {"a", true}, ","))
local big = {} for i = 1, 100 do big[i] = "piece" .. i end
put(#table.concat(big), #table.concat(big, ", "))
local proxy = setmetatable({}, {__index = function(t, k) if k <= 3 then return "p" .. k end end, __len = function() return 3 end})
put(table.concat(proxy), table.concat(proxy, "+"))
local withhash = {"a", "b", name = "n"}
put(table.concat(withhash), table.concat(setmetatable({"m"}, {}), "/"))
put(pcall(table.concat, {"a"}, {}))
-- .. of numbers of unknown type, beside strings and metamethods
local function cat(a, b, c) return a .. "/" .. b .. "/" .. c end
put(cat("x", 1, 2.5), cat(1e100, -0.0, 3), cat(2^63, math.mininteger, 1/0), cat("a", "b", "c"))
put(pcall(cat, "a", true, 1))
put(pcall(cat, "a", {}, 1))
put(cat("a", setmetatable({}, {__concat = function(a, b) return "meta" end}), 1))
put(cat(-0.0, 100 // 1, 7 // 2.0))
-- string.format with widths, flags and precisions on strings
put(string.format("[%-24s|%5s|%.2s|%-3.1s|%10.4s]", "abc", "xy", "hello", "q", "abcdefgh"))
put(#string.format("[%5s]", ("x"):rep(120)), string.format("%-5s|", 12), string.format("%5s", 1.5))
put(pcall(string.format, "%5s", "a\0b"))
put(string.format("%-8s|", setmetatable({}, {__tostring = function() return "obj" end})))
put(pcall(string.format, "%5s"))
put(string.format("%-6s%4d %-3s", "id", 42, "z"))
-- find and match: the usual arguments and every other kind
local text = "key = value, other = 12"
put(text:find("="), text:find("=", 6), text:find("=", -5), text:find("=", 100), text:find("", 24), text:find("", 25))
put(text:find("%w+"), text:find(".", 1, true), text:find(".", 1, false), text:find("e", 1, nil), text:find(" ", 2, 0))
put(text:match("(%w+) = (%w+)"), text:match("%d+"), text:match("o", 14), text:match("^key"), text:match("x"))
put(("12345"):find(3), string.find(12345, "3"), string.match(2.5, "%."), pcall(string.find, "a", {}))
put(pcall(string.find), pcall(string.match, "a", "("), pcall(string.find, "abc", "b", "x"))
-- tostring of numbers, and after numbers get a metatable
put(tostring(12), tostring(-0.0), tostring(1e15), tostring(2^63), tostring(0/0) == tostring(0/0), tostring(3 // 1))
put(tostring("s"), tostring(nil), tostring(true), pcall(tostring))
debug.setmetatable(0, {__tostring = function(n) return "number " .. string.format("%d", n) end})
put(tostring(7), tostring(7.0))
debug.setmetatable(0, nil)
put(tostring(7), tostring(7.5))
local saved_tostring = tostring
tostring = function(v) return "mine" end
put(tostring(1))
tostring = saved_tostring
-- type and tonumber: every kind of value, strings numbers are read from, errors, replaced
local co = coroutine.create(function() end)
put(type(nil), type(false), type(1), type(1.5), type("s"), type({}), type(print), type(put), type(co), type(io.stdout))
put(pcall(type), select("#", type(1, 2)))
put(tonumber("10"), tonumber(" 0x1F "), tonumber("1e3"), tonumber(".5"), tonumber("5."), tonumber("- 1"), tonumber("-0x10"))
put(tonumber(""), tonumber("z"), tonumber("1 2"), tonumber("0x"), tonumber("1e"), tonumber("inf"), tonumber("nan"))
put(tonumber(42), tonumber(4.5), tonumber(nil), tonumber({}), tonumber(true), pcall(tonumber))
put(tonumber(("9"):rep(1100)) == tonumber(("9"):rep(1100)), tonumber("9007199254740993"), tonumber("99999999999999999999"))
local saved_type, saved_tonumber = type, tonumber
type = function(v) return "my type" end
tonumber = function(v) return "my number" end
put(type(1), tonumber("1"))
type, tonumber = saved_type, saved_tonumber
-- library calls whose last argument is a call giving one result, none or several
local function none() end
local function one(v) return v end
local function two() return "x", "y" end
local function args(...) return select("#", ...) end
local list = {}
table.insert(list, one("a")) table.insert(list, ("abc"):sub(2, 2)) table.insert(list, 2, one("b"))
put(table.concat(list, ","), pcall(table.insert, list, none()))
put(pcall(function() table.insert(list, none()) end))
put(pcall(function() table.insert(list, two()) end))
local function at() return 1, "first" end
table.insert(list, at())
put(table.concat(list, ","), type(one(list)), tonumber(one("12")), pcall(function() return tonumber(two()) end))
put(pcall(tonumber, none()), pcall(function() return tonumber(none()) end))
put(pcall(function() return type(none()) end))
local function via_varargs(...) return type(...), tonumber(...) end
put(via_varargs("7"), pcall(via_varargs), args(type(one(1))))
return transcript()
