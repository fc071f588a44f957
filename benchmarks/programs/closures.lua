-- Closures and upvalues: creating closures in a loop, calling them,
-- closures that share and mutate a captured variable, closures of closures.
local function make_adder(a)
  return function(x) return x + a end
end

local function compose(f, g)
  return function(x) return f(g(x)) end
end

local function make_counter()
  local n = 0
  local function add(k) n = n + k; return n end
  local function get() return n end
  return add, get
end

local function run(iters)
  local total = 0
  for i = 1, iters do
    local f = compose(make_adder(i % 7), make_adder(1))
    local add, get = make_counter()
    for j = 1, 5 do
      add(f(j))
    end
    total = total + get()
  end
  return total
end

-- an accumulator whose upvalue lives across the whole run
local function make_acc()
  local sum, count = 0, 0
  return function(v)
    sum = sum + v
    count = count + 1
    return sum, count
  end
end

local acc = make_acc()
local sum, count = 0, 0
for i = 1, 300000 do
  sum, count = acc(i % 13)
end

print(string.format("total = %d, sum = %d, count = %d", run(100000), sum, count))
