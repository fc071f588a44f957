-- Storage: builds a tree of arrays seven levels deep, four children a
-- node and leaves of random length, counting the nodes in a field of the
-- benchmark object: allocation and table construction.
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

local Random = {}
Random.__index = Random

function Random.new()
  return setmetatable({seed = 74755}, Random)
end

function Random:next()
  self.seed = ((self.seed * 1309) + 13849) & 65535
  return self.seed
end

local Storage = setmetatable({}, {__index = Benchmark})
Storage.__index = Storage

function Storage.new(expected)
  return setmetatable({expected = expected, count = 0}, Storage)
end

function Storage:benchmark()
  local random = Random.new()
  self.count = 0
  self:build_tree_depth(7, random)
  return self.count
end

function Storage:build_tree_depth(depth, random)
  self.count = self.count + 1
  if depth == 1 then
    local leaf = {}
    for i = 1, random:next() % 10 + 1 do
      leaf[i] = 0
    end
    return leaf
  end
  local node = {}
  for i = 1, 4 do
    node[i] = self:build_tree_depth(depth - 1, random)
  end
  return node
end

local storage = Storage.new(5461)
if not storage:inner_benchmark_loop(40) then
  error("storage: wrong result " .. storage:benchmark())
end
print(string.format("storage: %d nodes", storage:benchmark()))
