-- table.unpack on tables without a metatable (its plain form) and with one
-- (the general path), whole and by ranges, with holes and hash parts.
local t = {10, 20, 30}
put(table.unpack(t))
put(table.unpack(t, 2))
put(table.unpack(t, 2, 3))
put(table.unpack(t, nil, 2))
put(table.unpack(t, 1, nil))
put(table.unpack(t, -1, 1))
put(table.unpack(t, 3, 1))
-- Ranges of the list part (the varargs idiom, unpack(args, 1, args.n)),
-- and ranges whose end is not past their start or is negative.
put(table.unpack(t, 1, 3))
put(table.unpack(t, 2, 2))
put(select('#', table.unpack(t, 2, 1)), select('#', table.unpack(t, 2, -1)), select('#', table.unpack(t, 1, 0)))
put(table.unpack(t, 2, 4))
local args = table.pack(1, nil, 3, nil)
put(args.n, table.unpack(args, 1, args.n))
put(select('#', table.unpack({})))
put(select('#', table.unpack({}, 1, 3)))
put(table.unpack({1, nil, 3}))
put(table.unpack({n = 2, [1] = "a", [2] = "b"}))
local big = {}
for i = 1, 100 do big[i] = i end
put(select('#', table.unpack(big)), (select(100, table.unpack(big))))
put(select('#', table.unpack(big, 1, 64)), select('#', table.unpack(big, 30, 100)), (table.unpack(big, 37, 100)))
local copy = {table.unpack(t)}
copy[1] = 99
put(t[1], copy[1], #copy)
local a, b, c, d = table.unpack(t)
put(a, b, c, d)
local proxy = setmetatable({}, {__index = function(_, k) return k * 2 end, __len = function() return 4 end})
put(table.unpack(proxy))
put(table.unpack(setmetatable({1, 2}, {__index = function() return "x" end}), 1, 4))
put(pcall(table.unpack, t, "x"))
put(pcall(table.unpack, t, 1, {}))
put(pcall(table.unpack, nil))
put(pcall(table.unpack, "abc"))
put(pcall(table.unpack, t, 1, 1e8))
put(pcall(table.unpack, t, math.mininteger, math.maxinteger))
t[4] = 40
put(table.unpack(t))
local saved = table.unpack
table.unpack = function() return "replaced" end
put(table.unpack(t))
table.unpack = saved
put(table.unpack(t, 4))
return transcript()
