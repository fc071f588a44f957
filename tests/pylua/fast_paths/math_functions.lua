-- math.abs, math.floor and two-argument math.max/math.min inline: balls in
-- a box whose velocities flip through math.abs, a grid bucketed with
-- math.floor, extents kept with math.max/min; then the arguments the
-- inline forms leave to the library (the least integer, huge floats,
-- inf, NaN, strings, tables, negative zeros) and the functions replaced.
local Ball = {}
Ball.__index = Ball
function Ball.new(x, v) return setmetatable({x = x, v = v}, Ball) end
function Ball:step(limit)
  self.x = self.x + self.v
  if self.x > limit then self.x = limit self.v = 0 - math.abs(self.v) end
  if self.x < 0 then self.x = 0 self.v = math.abs(self.v) end
  return self.x
end

local Grid = {}
Grid.__index = Grid
function Grid.new(size) return setmetatable({size = size, lo = math.huge, hi = -math.huge}, Grid) end
function Grid:cell(x)
  self.lo = math.min(self.lo, x)
  self.hi = math.max(self.hi, x)
  return math.floor(x / self.size)
end

local balls = {Ball.new(3, 7), Ball.new(10, -4), Ball.new(1.5, 2.25), Ball.new(0, -0.5)}
local grid = Grid.new(4)
local cells = {}
for _ = 1, 20 do
  for _, b in ipairs(balls) do
    local c = grid:cell(b:step(25))
    cells[#cells + 1] = c
  end
end
put(table.concat(cells, ","))
put(grid.lo, grid.hi, math.type(grid.lo), math.type(grid.hi))
for _, b in ipairs(balls) do put(b.x, b.v, math.type(b.x)) end

local function abs(x) return math.abs(x) end
local function floor(x) return math.floor(x) end
local function max(a, b) return math.max(a, b) end
local function min(a, b) return math.min(a, b) end
local mi = math.mininteger
put(abs(-3), abs(3.5), abs(-0.0), abs(mi), abs("-4"), abs(-1/0), abs(0/0) ~= abs(0/0), abs(math.maxinteger))
put(floor(3.7), floor(-3.5), floor(4), floor(2^63), floor(-2^63), floor(1/0), floor(-1/0))
put(floor(0/0) ~= floor(0/0), floor("2.5"), floor(-0.0), floor(2^62), floor(-2.0^63 - 4096), math.type(floor(-0.5)))
put(max(1, 2), max(2.5, 2), max(3, 3.0), max(3.0, 3), max(1, 0/0), max(mi, 2^63), max(-0.0, 0.0), max(0.0, -0.0))
put(min(1, 2), min(2.5, 2), min(3, 3.0), min(3.0, 3), min(1, 0/0), min(mi, -2^63), min(-0.0, 0.0), min(0.0, -0.0))
put(max(0/0, 1) ~= max(0/0, 1), min(0/0, 1) ~= min(0/0, 1), max("a", "b"), min("a", "b"), max(2^53, 2^53 + 1))
put(pcall(abs, {}))
put(pcall(abs))
put(pcall(floor, "x"))
put(pcall(max, {}, 1))
put(pcall(min, 1, "x"))
put(pcall(max))
math.abs = function(x) return "abs " .. tostring(x) end
math.floor = function(x) return "floor " .. tostring(x) end
math.max = function(a, b) return "max" end
put(abs(-2), floor(2.5), max(1, 2), min(1, 2), Ball.new(-5, -2):step(25), grid:cell(9))
return transcript()
