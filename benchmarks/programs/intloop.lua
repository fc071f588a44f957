-- Integer loop (first-issue benchmark): a few million iterations of
-- integer arithmetic with %, //, and the bitwise operators & | ~ << >>.
local function run(n)
  local acc, x, odd = 0, 1, 0
  for i = 1, n do
    x = (x * 1103515245 + 12345) & 0x7fffffff
    if x % 3 == 0 then
      acc = acc + (x >> 7)
    else
      acc = acc ~ (i << 2)
    end
    odd = (odd + (x // 5) % 7) | (i & 1)
  end
  return acc, odd
end

local acc, odd = run(2000000)
print(string.format("acc = %d, odd = %d", acc, odd))
