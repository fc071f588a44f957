-- The table library and the array operations on tables whose metatable
-- has no __newindex or __len (class instances, lists of a list class):
-- raw elements, read through __index only where one is nil.
local List = {}
List.__index = List
function List.new(...) return setmetatable({...}, List) end
function List:push(v) self[#self + 1] = v; return self end
function List:size() return #self end

local l = List.new(5, 3, 9)
l:push(1); table.insert(l, 7); table.insert(l, 1, 0)
put(#l, l:size(), table.concat(l, ','))
table.sort(l); put(table.concat(l, ' '))
table.sort(l, function(a, b) return a > b end); put(table.concat(l, ' '))
put(table.remove(l), table.remove(l, 1), #l, table.unpack(l))
put(table.concat(table.move(l, 1, #l, 1, List.new()), ','))
put(table.concat(table.move(l, 2, #l, 1, l), ','))
local n = 0
for k, v in pairs(l) do n = n + k * v end
put(n, select('#', table.unpack(l, 1, 6)))

-- __index answers where an element is nil: remove past the end, unpack
-- and concat past the list, move from past it.
local Defaults = setmetatable({}, {__index = function(t, k) return 'd' .. tostring(k) end})
local D = setmetatable({'a', 'b'}, {__index = Defaults})
put(table.remove(D, 3), table.concat(D, ',', 1, 4), table.unpack(D, 2, 4))
put(table.concat(table.move(D, 2, 4, 1, {}), ','))
for i = 1, 3 do table.insert(D, i, 'x' .. i) end
put(#D, table.concat(D, ','))
put(pcall(table.concat, setmetatable({1, 2}, {__index = function() return {} end}), ',', 1, 3))

-- A metatable that gains __newindex or __len sends the next calls to
-- the metamethods.
local mt = {__index = List}
local o = setmetatable({1, 2, 3}, mt)
table.insert(o, 4); put(#o, o:size())
mt.__newindex = function(t, k, v) rawset(t, k, v * 10) end
table.insert(o, 5); o[#o + 1] = 6; put(table.concat(o, ','))
mt.__len = function() return 2 end
table.insert(o, 'l'); put(rawget(o, 3), #o, table.concat(o, ','))
mt.__newindex, mt.__len = nil, nil
put(#o, table.remove(o), table.concat(o, ','))

-- pairs of an object without __pairs walks its own fields; with one, the handler.
local P = setmetatable({x = 1}, {__index = {y = 2}})
local keys = {}
for k in pairs(P) do keys[#keys + 1] = k end
put(table.concat(keys, ','))
getmetatable(P).__pairs = function(t) return function(_, k) if not k then return 'only', 1 end end, t, nil end
for k, v in pairs(P) do put('pairs', k, v) end

-- Sorting an object's elements with its class's order, and errors with
-- the table's own name.
local Item = {}
Item.__index = Item
Item.__lt = function(a, b) return a.w < b.w end
local items = setmetatable({}, List)
for i, w in ipairs({4, 1, 3, 2}) do items:push(setmetatable({w = w, id = i}, Item)) end
table.sort(items)
local ids = {}
for i = 1, #items do ids[i] = items[i].id end
put(table.concat(ids, ' '))
put(pcall(table.insert, l, 1, 2, 3))
put(pcall(table.insert, l, 99, 1))
return transcript()
