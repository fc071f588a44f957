local function source(items)
  return coroutine.wrap(function() for _, v in ipairs(items) do coroutine.yield(v) end end)
end
local function filter(pred, gen)
  return coroutine.wrap(function() for v in gen do if pred(v) then coroutine.yield(v) end end end)
end
local function map(f, gen)
  return coroutine.wrap(function() for v in gen do coroutine.yield(f(v)) end end)
end
local out = {}
for v in map(function(x) return x * x end, filter(function(x) return x % 2 == 1 end, source({1, 2, 3, 4, 5, 6, 7}))) do
  out[#out + 1] = v
end
print(table.concat(out, ","))
