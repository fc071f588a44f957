-- Constructors of constants only, written on one line, are made in one
-- statement (TableOps.constant_tree): rows of a data file, nested lists and
-- records, every kind of constant, more items than one SETLIST flushes,
-- repeated keys; each evaluation makes fresh tables.  Mixed with
-- constructors that take values from elsewhere, nil, integer and float
-- keys, and written over several lines, which stay per instruction.
local function show(v, depth)
  depth = depth or 0
  if type(v) ~= "table" then
    if type(v) == "string" then return string.format("%q", v) end
    return math.type(v) and (math.type(v) .. ":" .. tostring(v)) or tostring(v)
  end
  if depth > 4 then return "..." end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) and type(a) ~= "boolean" then return a < b end
    return tostring(type(a)) < tostring(type(b)) or (type(a) == "boolean" and tostring(a) < tostring(b))
  end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = show(k) .. "=" .. show(v[k], depth + 1) end
  return "{" .. table.concat(parts, ",") .. "}#" .. #v
end

local rows = {
  {id = 1, name = "alpha", price = 13.5, tags = {"a", "b"}, ok = true},
  {id = 2, name = "beta", price = -0.0, tags = {}, ok = false, pos = {x = 1, y = {2, 3}}},
  {id = 3, name = "ga\0mma\n\"q\"", price = 1e300, tags = {"c"}, big = 9007199254740993, neg = -7},
}
for _, row in ipairs(rows) do put(show(row)) end

-- every evaluation makes fresh tables, nested ones included
local made = {}
for i = 1, 3 do
  local t = {tags = {"x"}, n = {v = 1}, 1, 2}
  t.tags[2] = i
  t.n.v = t.n.v + i
  made[i] = t
end
for i = 1, 3 do put(show(made[i])) end
put(made[1] ~= made[2], made[1].tags ~= made[2].tags, made[1].n ~= made[3].n)

-- special floats and strings
local f = {inf = 1/0, ninf = -1/0, zero = -0.0, half = 0.5, s = "\127\1", e = ""}
put(show(f), 1 / f.zero, f.inf == math.huge)
local nan = {v = 0/0}
put(nan.v ~= nan.v)

-- repeated keys: the last one written wins
put(show({a = 1, a = 2, b = {1}, b = {2, 3}}))

-- more list items than one flush (50), with nested lists among them
local long = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, {52}, "53", 54.5, true, false}
put(#long, long[50], long[51], long[52][1], long[53], long[54], long[55], long[56], long[57])

-- not constant: values from locals, calls, nil, integer and float keys, varargs
local x = 10
local function two() return 1, 2 end
put(show({a = x, b = {x, 1}, c = {1}}))
put(show({two(), {two()}}))
put(show({1, nil, 3}), show({n = nil, m = 1}), show({[1] = "k", "p"}), show({"p", [1] = "k"}))
put(show({[2] = "b", [1.0] = "a", [2.5] = "f", "z"}))
put(show({[true] = 1, [false] = {2}}))
put(select("#", table.unpack({1, 2, {3}})))

-- over several lines: per instruction, and a line hook sees each line
local lines = {}
debug.sethook(function(_, line) lines[#lines + 1] = line end, "l")
local multi = {
  a = 1,
  b = {2,
       3},
  c = "s",
}
local single = {a = 1, b = {2, 3}, c = "s"}
debug.sethook()
local first = lines[1]
for i = 1, #lines do lines[i] = lines[i] - first end
put(table.concat(lines, " "))
put(show(multi) == show(single))

-- a constant table as an argument, a return value, an upvalue's value
local function id(...) return ... end
put(show(id({k = {"v"}})), show((function() return {1, {2}} end)()))
local function maker() return {count = 0, items = {}} end
local m1, m2 = maker(), maker()
m1.count = 5; m1.items[1] = "x"
put(m2.count, #m2.items, m1 ~= m2)

-- a constant table given a metatable and used as an object
local Point = {}
Point.__index = Point
function Point:norm() return self.x * self.x + self.y * self.y end
local p = setmetatable({x = 3, y = 4}, Point)
put(p:norm(), getmetatable({x = 1}) == nil)

return transcript()
