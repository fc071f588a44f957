-- Recursive functions over numbers: integer results, float results from
-- one branch, integer wrap-around, and results of other types.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local function halves(n) if n < 2 then return 0.5 end return halves(n - 1) + halves(n - 2) end
local function tri(n) if n == 0 then return 0 end return n + tri(n - 1) end
local function big(n) if n == 0 then return math.maxinteger end return big(n - 1) + 1 end
local function band(n) if n == 0 then return (tonumber("6.0")) end return band(n - 1) & 7 end
local function mixed(n) if n == 0 then return 1 end if n == 3 then return 2.0 end return mixed(n - 1) * 2 end
local function words(n) if n == 0 then return "w" end return words(n - 1) .. n end
local function gcd(a, b) if b == 0 then return a end return gcd(b, a % b) end
local function ack(m, n)
  if m == 0 then return n + 1 end
  if n == 0 then return ack(m - 1, 1) end
  return ack(m - 1, ack(m, n - 1))
end
print(fib(20), halves(10), tri(100), big(3), band(2), mixed(5), words(4))
print(math.type(fib(10)), math.type(halves(3)), math.type(mixed(5)), gcd(1071, 462), ack(2, 3))
print(fib(2.0), math.type(fib(2.0)), tri(3.0))
