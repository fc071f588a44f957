local data = {}
for i = 1, 40 do data[i] = (i * 37) % 101 end
table.sort(data)
local function bsearch(t, x)
  local lo, hi = 1, #t
  while lo <= hi do
    local mid = (lo + hi) // 2
    if t[mid] == x then return mid elseif t[mid] < x then lo = mid + 1 else hi = mid - 1 end
  end
  return nil
end
print(bsearch(data, data[17]) == 17, bsearch(data, 1000), data[1], data[40])
