-- Tail calls do not grow the stack: loops written as tail recursion.
local function count(n, acc)
  if n == 0 then return acc end
  return count(n - 1, acc + 1)
end
print(count(300000, 0))

-- a state machine of mutually tail-calling functions (globals and locals)
local is_odd
local function is_even(n)
  if n == 0 then return true end
  return is_odd(n - 1)
end
function is_odd(n)
  if n == 0 then return false end
  return is_even(n - 1)
end
print(is_even(300001), is_odd(300001))

-- a method calling itself through self
local Counter = {}
Counter.__index = Counter
function Counter:run(n)
  if n == 0 then return self.steps end
  self.steps = self.steps + 1
  return self:run(n - 1)
end
print(setmetatable({steps = 0}, Counter):run(250000))

-- results of every count pass through a chain of tail calls
local function three(n) if n == 0 then return 1, 2, 3 end return three(n - 1) end
local function none(n) if n == 0 then return end return none(n - 1) end
print(three(100000))
print(select("#", none(100000)))
local t = {three(10)}
print(#t, (three(10)))

-- a tail call whose callee is chosen at run time
local ops = {}
function ops.a(n) if n == 0 then return "a" end return ops.b(n - 1) end
function ops.b(n) if n == 0 then return "b" end return ops[n % 2 == 0 and "a" or "b"](n - 1) end
print(ops.a(200001))
