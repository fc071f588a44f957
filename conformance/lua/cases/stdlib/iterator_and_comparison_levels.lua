-- A library iterator a generic for calls is the level 'for iterator' in a
-- traceback; the comparison table.sort and math.max make without a
-- comparator is no level of its own.
print(select(2, xpcall(function() for _ in ("a"):gmatch("(") do end end, debug.traceback)))
print(select(2, xpcall(function()
  for w in ("a b"):gmatch("%w") do
    for _ in w:gmatch("[") do end
  end
end, debug.traceback)))
print(select(2, xpcall(table.sort, debug.traceback, {1, "x"})))
print(select(2, xpcall(math.max, debug.traceback, 1, {})))
local mt = {__lt = function(a, b) error("lt failed") end}
print(select(2, xpcall(table.sort, debug.traceback, {setmetatable({}, mt), setmetatable({}, mt)})))
print(pcall(table.sort, {1, "x"}))
print(select(2, xpcall(function()
  for a in ("x"):gmatch("(") do
    for i = 1, 2 do end
  end
end, debug.traceback)))
print(select(2, xpcall(function()
  for a in ("x"):gmatch("%") do
    if a then goto cont end
    ::cont::
  end
end, debug.traceback)))
