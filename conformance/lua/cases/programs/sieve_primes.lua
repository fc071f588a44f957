local function sieve(n)
  local is = {}
  for i = 2, n do is[i] = true end
  for i = 2, math.floor(math.sqrt(n)) do
    if is[i] then for j = i * i, n, i do is[j] = false end end
  end
  local out = {}
  for i = 2, n do if is[i] then out[#out + 1] = i end end
  return out
end
local p = sieve(100)
print(#p, table.concat(p, " "))
