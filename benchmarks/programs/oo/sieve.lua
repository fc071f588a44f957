-- Sieve: the primes below 5,000 by Eratosthenes' sieve over a boolean
-- array, a method of the benchmark object.
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

local Sieve = setmetatable({}, {__index = Benchmark})
Sieve.__index = Sieve

function Sieve.new(expected)
  return setmetatable({expected = expected}, Sieve)
end

function Sieve:benchmark()
  local flags = {}
  for i = 1, 5000 do
    flags[i] = true
  end
  return self:sieve(flags, 5000)
end

function Sieve:sieve(flags, size)
  local prime_count = 0
  for i = 2, size do
    if flags[i - 1] then
      prime_count = prime_count + 1
      local k = i + i
      while k <= size do
        flags[k - 1] = false
        k = k + i
      end
    end
  end
  return prime_count
end

local sieve = Sieve.new(669)
if not sieve:inner_benchmark_loop(150) then
  error("sieve: wrong result " .. sieve:benchmark())
end
print(string.format("sieve: %d primes", sieve:benchmark()))
