-- Bounce: balls moving in a box, each an object whose method updates its
-- position and velocity, driven through a small benchmark harness class
-- that the program's class inherits from (an __index chain of two).
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

local Ball = {}
Ball.__index = Ball

function Ball.new(random)
  return setmetatable({
    x = random:next() % 500,
    y = random:next() % 500,
    x_vel = (random:next() % 300) - 150,
    y_vel = (random:next() % 300) - 150,
  }, Ball)
end

function Ball:bounce()
  local x_limit, y_limit = 500, 500
  local bounced = false
  self.x = self.x + self.x_vel
  self.y = self.y + self.y_vel
  if self.x > x_limit then
    self.x = x_limit
    self.x_vel = 0 - math.abs(self.x_vel)
    bounced = true
  end
  if self.x < 0 then
    self.x = 0
    self.x_vel = math.abs(self.x_vel)
    bounced = true
  end
  if self.y > y_limit then
    self.y = y_limit
    self.y_vel = 0 - math.abs(self.y_vel)
    bounced = true
  end
  if self.y < 0 then
    self.y = 0
    self.y_vel = math.abs(self.y_vel)
    bounced = true
  end
  return bounced
end

local Bounce = setmetatable({}, {__index = Benchmark})
Bounce.__index = Bounce

function Bounce.new(expected)
  return setmetatable({expected = expected}, Bounce)
end

function Bounce:benchmark()
  local random = Random.new()
  local balls = {}
  for i = 1, 100 do
    balls[i] = Ball.new(random)
  end
  local bounces = 0
  for _ = 1, 50 do
    for _, ball in ipairs(balls) do
      if ball:bounce() then
        bounces = bounces + 1
      end
    end
  end
  return bounces
end

local bounce = Bounce.new(1331)
if not bounce:inner_benchmark_loop(100) then
  error("bounce: wrong result " .. bounce:benchmark())
end
print(string.format("bounce: %d bounces", bounce:benchmark()))
