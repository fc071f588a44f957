-- Permute: counts the permutations of six elements by recursive swapping,
-- every step a method call on the benchmark object, which keeps its
-- counter and array in fields.
local Benchmark = {}
Benchmark.__index = Benchmark

function Benchmark:inner_benchmark_loop(iterations)
  for _ = 1, iterations do
    if not self:verify_result(self:benchmark()) then
      return false
    end
  end
  return true
end

function Benchmark:verify_result(result)
  return result == self.expected
end

local Permute = setmetatable({}, {__index = Benchmark})
Permute.__index = Permute

function Permute.new(expected)
  return setmetatable({expected = expected, count = 0, v = {}}, Permute)
end

function Permute:benchmark()
  self.count = 0
  self.v = {0, 0, 0, 0, 0, 0}
  self:permute(6)
  return self.count
end

function Permute:permute(n)
  self.count = self.count + 1
  if n ~= 0 then
    local n1 = n - 1
    self:permute(n1)
    for i = n, 1, -1 do
      self:swap(n, i)
      self:permute(n1)
      self:swap(n, i)
    end
  end
end

function Permute:swap(i, j)
  local v = self.v
  local tmp = v[i]
  v[i] = v[j]
  v[j] = tmp
end

local permute = Permute.new(8660)
if not permute:inner_benchmark_loop(60) then
  error("permute: wrong result " .. permute:benchmark())
end
print(string.format("permute: %d permutations", permute:benchmark()))
