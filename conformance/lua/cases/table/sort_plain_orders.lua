-- table.sort with comparators that are exactly a < b or a > b.
local function show(t)
  local o = {}
  for i, v in ipairs(t) do o[i] = math.type(v) == "float" and (v .. "f") or tostring(v) end
  return table.concat(o, ",")
end
local gt = function(a, b) return a > b end
local lt = function(a, b) return a < b end
local t = {5, 3, 9, 1, 3, 7} table.sort(t, gt) print(show(t))
t = {"b", "a", "c", "a", "B"} table.sort(t, gt) print(show(t))
t = {2.5, 1, 3, 2.5, -0.0, 1e300} table.sort(t, gt) print(show(t))
t = {5, 3, 9, 1} table.sort(t, lt) print(show(t))
t = {1, 1.0, 2} table.sort(t, gt) print(t[1], #t)
t = setmetatable({3, 1, 2}, {__index = function() end}) table.sort(t, gt) print(show(t))
print(pcall(table.sort, {1, "x", 3}, gt))
local key = setmetatable({}, {__lt = function(a, b) return rawequal(a, b) end})
print(pcall(table.sort, {key, key}, gt))
