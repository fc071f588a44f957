-- Shapes: a scene of circles, rectangles and polygons moved frame by frame,
-- in the style where every object gets a metatable of its own,
-- setmetatable(obj, {__index = Class}), and a subclass chains to its base
-- the same way.  Vector methods allocate a new vector on every step.
local Vec = {}

function Vec.new(x, y)
  return setmetatable({x = x, y = y}, {__index = Vec})
end

function Vec:plus(o) return Vec.new(self.x + o.x, self.y + o.y) end
function Vec:minus(o) return Vec.new(self.x - o.x, self.y - o.y) end
function Vec:scaled(k) return Vec.new(self.x * k, self.y * k) end
function Vec:dot(o) return self.x * o.x + self.y * o.y end
function Vec:cross(o) return self.x * o.y - self.y * o.x end

local Box = {}

function Box.new(lo, hi)
  return setmetatable({lo = lo, hi = hi}, {__index = Box})
end

function Box:overlaps(o)
  return self.lo.x <= o.hi.x and o.lo.x <= self.hi.x and self.lo.y <= o.hi.y and o.lo.y <= self.hi.y
end

local Shape = {}

function Shape:init(id, center)
  self.id = id
  self.center = center
  self.hits = 0
  return self
end

function Shape:moved(step)
  self.center = self.center:plus(step)
end

function Shape:describe()
  return string.format("%s#%d area=%.3f box=%.3f,%.3f", self:kind(), self.id, self:area(),
                       self:bounds().lo.x, self:bounds().hi.y)
end

local Circle = setmetatable({}, {__index = Shape})

function Circle.new(id, center, r)
  local obj = setmetatable({}, {__index = Circle})
  obj:init(id, center)
  obj.r = r
  return obj
end

function Circle:kind() return "circle" end
function Circle:area() return 3.25 * self.r * self.r end
function Circle:bounds()
  local d = Vec.new(self.r, self.r)
  return Box.new(self.center:minus(d), self.center:plus(d))
end

local Rect = setmetatable({}, {__index = Shape})

function Rect.new(id, center, w, h)
  local obj = setmetatable({}, {__index = Rect})
  obj:init(id, center)
  obj.half = Vec.new(w / 2, h / 2)
  return obj
end

function Rect:kind() return "rect" end
function Rect:area() return 4 * self.half.x * self.half.y end
function Rect:bounds() return Box.new(self.center:minus(self.half), self.center:plus(self.half)) end

local Polygon = setmetatable({}, {__index = Shape})

function Polygon.new(id, center, points)
  local obj = setmetatable({}, {__index = Polygon})
  obj:init(id, center)
  obj.points = points
  return obj
end

function Polygon:kind() return "polygon" end

function Polygon:area()
  local sum, pts = 0, self.points
  for i = 1, #pts do
    sum = sum + pts[i]:cross(pts[i % #pts + 1])
  end
  return math.abs(sum) / 2
end

function Polygon:bounds()
  local lo, hi = self.center:plus(self.points[1]), self.center:plus(self.points[1])
  for _, p in ipairs(self.points) do
    local q = self.center:plus(p)
    lo = Vec.new(math.min(lo.x, q.x), math.min(lo.y, q.y))
    hi = Vec.new(math.max(hi.x, q.x), math.max(hi.y, q.y))
  end
  return Box.new(lo, hi)
end

local Scene = {}

function Scene.new()
  return setmetatable({shapes = {}, seed = 42}, {__index = Scene})
end

function Scene:random(n)
  self.seed = (self.seed * 1103515245 + 12345) % 2147483648
  return self.seed % n
end

function Scene:populate(count)
  for id = 1, count do
    local center = Vec.new(self:random(400), self:random(400))
    local kind = id % 3
    local shape
    if kind == 0 then
      shape = Circle.new(id, center, 2 + self:random(10))
    elseif kind == 1 then
      shape = Rect.new(id, center, 2 + self:random(16), 2 + self:random(16))
    else
      local pts = {}
      for k = 1, 3 + self:random(4) do
        pts[k] = Vec.new(self:random(12) - 6, self:random(12) - 6)
      end
      shape = Polygon.new(id, center, pts)
    end
    self.shapes[#self.shapes + 1] = shape
  end
end

function Scene:frame(t)
  local boxes = {}
  for i, s in ipairs(self.shapes) do
    s:moved(Vec.new((i + t) % 7 - 3, (i * t) % 5 - 2))
    boxes[i] = s:bounds()
  end
  local hits = 0
  for i = 1, #boxes do
    for j = i + 1, math.min(#boxes, i + 8) do
      if boxes[i]:overlaps(boxes[j]) then
        hits = hits + 1
        self.shapes[i].hits = self.shapes[i].hits + 1
      end
    end
  end
  return hits
end

local scene = Scene.new()
scene:populate(300)
local total = 0
for t = 1, 60 do
  total = total + scene:frame(t)
end
local area = 0
for _, s in ipairs(scene.shapes) do area = area + s:area() end
print(string.format("shapes: %d hits, area %.3f; %s; %s; %s", total, area,
                    scene.shapes[7]:describe(), scene.shapes[8]:describe(), scene.shapes[9]:describe()))
