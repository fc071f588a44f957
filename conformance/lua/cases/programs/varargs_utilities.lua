local function curry(f, ...)
  local saved = table.pack(...)
  return function(...)
    local all = {table.unpack(saved, 1, saved.n)}
    local more = table.pack(...)
    for i = 1, more.n do all[saved.n + i] = more[i] end
    return f(table.unpack(all, 1, saved.n + more.n))
  end
end
local add3 = function(a, b, c) return a + b + c end
print(curry(add3, 1)(2, 3), curry(add3, 1, 2)(3), curry(add3)(1, 2, 3))
local function count_nils(...) local n = 0 for i = 1, select("#", ...) do if select(i, ...) == nil then n = n + 1 end end return n end
print(count_nils(nil, 1, nil, nil), count_nils())
