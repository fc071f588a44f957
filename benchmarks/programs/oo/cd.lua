-- Vector collision detection (CD): aircraft move in frames; each motion is
-- drawn into a voxel map keyed by strings built from numbers, and motions
-- sharing a voxel are tested for intersection with Vector3D objects whose
-- methods (plus, minus, times, dot) allocate new vectors on every step.
local MIN_X, MIN_Y, MAX_X, MAX_Y = 0.0, 0.0, 1000.0, 1000.0
local MIN_Z, MAX_Z = 0.0, 10.0
local PROXIMITY_RADIUS = 1.0
local GOOD_VOXEL_SIZE = PROXIMITY_RADIUS * 2

local Vector2D = {}
Vector2D.__index = Vector2D

function Vector2D.new(x, y)
  return setmetatable({x = x, y = y}, Vector2D)
end

function Vector2D:plus(other)
  return Vector2D.new(self.x + other.x, self.y + other.y)
end

function Vector2D:minus(other)
  return Vector2D.new(self.x - other.x, self.y - other.y)
end

function Vector2D:key()
  return self.x .. "," .. self.y
end

local Vector3D = {}
Vector3D.__index = Vector3D

function Vector3D.new(x, y, z)
  return setmetatable({x = x, y = y, z = z}, Vector3D)
end

function Vector3D:plus(other)
  return Vector3D.new(self.x + other.x, self.y + other.y, self.z + other.z)
end

function Vector3D:minus(other)
  return Vector3D.new(self.x - other.x, self.y - other.y, self.z - other.z)
end

function Vector3D:dot(other)
  return self.x * other.x + self.y * other.y + self.z * other.z
end

function Vector3D:squared_magnitude()
  return self:dot(self)
end

function Vector3D:magnitude()
  return math.sqrt(self:squared_magnitude())
end

function Vector3D:times(amount)
  return Vector3D.new(self.x * amount, self.y * amount, self.z * amount)
end

local Motion = {}
Motion.__index = Motion

function Motion.new(callsign, pos_one, pos_two)
  return setmetatable({callsign = callsign, pos_one = pos_one, pos_two = pos_two}, Motion)
end

function Motion:delta()
  return self.pos_two:minus(self.pos_one)
end

function Motion:find_intersection(other)
  local init1, init2 = self.pos_one, other.pos_one
  local vec1, vec2 = self:delta(), other:delta()
  local radius = PROXIMITY_RADIUS
  local a = vec2:minus(vec1):squared_magnitude()
  if a ~= 0 then
    local b = 2 * init1:minus(init2):dot(vec1:minus(vec2))
    local c = -radius * radius + init2:minus(init1):squared_magnitude()
    local discr = b * b - 4 * a * c
    if discr < 0 then
      return nil
    end
    local v1 = (-b - math.sqrt(discr)) / (2 * a)
    local v2 = (-b + math.sqrt(discr)) / (2 * a)
    if v1 <= v2 and ((v1 <= 1 and 1 <= v2) or (v1 <= 0 and 0 <= v2) or (0 <= v1 and v2 <= 1)) then
      local v = v1 <= 0 and 0 or v1
      local result1 = init1:plus(vec1:times(v))
      local result2 = init2:plus(vec2:times(v))
      local result = result1:plus(result2):times(0.5)
      if result.x >= MIN_X and result.x <= MAX_X and result.y >= MIN_Y and result.y <= MAX_Y
          and result.z >= MIN_Z and result.z <= MAX_Z then
        return result
      end
    end
    return nil
  end
  if init2:minus(init1):magnitude() <= radius then
    return init1:plus(init2):times(0.5)
  end
  return nil
end

local HORIZONTAL = Vector2D.new(GOOD_VOXEL_SIZE, 0.0)
local VERTICAL = Vector2D.new(0.0, GOOD_VOXEL_SIZE)

local function axis_overlaps(v, p0, pv, r, size)
  if pv == 0 then
    return v <= p0 + r and p0 - r <= v + size, nil, nil
  end
  local low, high = (v - r - p0) / pv, (v + size + r - p0) / pv
  if pv < 0 then
    low, high = high, low
  end
  return (low <= 1 and 1 <= high) or (low <= 0 and 0 <= high) or (0 <= low and high <= 1), low, high
end

local CollisionDetector = {}
CollisionDetector.__index = CollisionDetector

function CollisionDetector.new()
  return setmetatable({state = {}}, CollisionDetector)
end

function CollisionDetector:is_in_voxel(voxel, motion)
  if voxel.x > MAX_X or voxel.x < MIN_X or voxel.y > MAX_Y or voxel.y < MIN_Y then
    return false
  end
  local init, fin = motion.pos_one, motion.pos_two
  local r = PROXIMITY_RADIUS / 2
  local xv, yv = fin.x - init.x, fin.y - init.y
  local x_ok, low_x, high_x = axis_overlaps(voxel.x, init.x, xv, r, GOOD_VOXEL_SIZE)
  if not x_ok then
    return false
  end
  local y_ok, low_y, high_y = axis_overlaps(voxel.y, init.y, yv, r, GOOD_VOXEL_SIZE)
  if not y_ok then
    return false
  end
  return xv == 0 or yv == 0 or (low_y <= high_x and high_x <= high_y)
    or (low_y <= low_x and low_x <= high_y) or (low_x <= low_y and high_y <= high_x)
end

function CollisionDetector:voxel_hash(position)
  local x_div = math.floor(position.x / GOOD_VOXEL_SIZE)
  local y_div = math.floor(position.y / GOOD_VOXEL_SIZE)
  local x, y = GOOD_VOXEL_SIZE * x_div, GOOD_VOXEL_SIZE * y_div
  if position.x < 0 then x = x - GOOD_VOXEL_SIZE end
  if position.y < 0 then y = y - GOOD_VOXEL_SIZE end
  return Vector2D.new(x, y)
end

function CollisionDetector:recurse(voxel_map, seen, next_voxel, motion)
  if not self:is_in_voxel(next_voxel, motion) then
    return
  end
  local key = next_voxel:key()
  if seen[key] then
    return
  end
  seen[key] = true
  local motions = voxel_map[key]
  if motions == nil then
    motions = {}
    voxel_map[key] = motions
  end
  table.insert(motions, motion)
  self:recurse(voxel_map, seen, next_voxel:minus(HORIZONTAL), motion)
  self:recurse(voxel_map, seen, next_voxel:plus(HORIZONTAL), motion)
  self:recurse(voxel_map, seen, next_voxel:minus(VERTICAL), motion)
  self:recurse(voxel_map, seen, next_voxel:plus(VERTICAL), motion)
  self:recurse(voxel_map, seen, next_voxel:minus(HORIZONTAL):minus(VERTICAL), motion)
  self:recurse(voxel_map, seen, next_voxel:minus(HORIZONTAL):plus(VERTICAL), motion)
  self:recurse(voxel_map, seen, next_voxel:plus(HORIZONTAL):minus(VERTICAL), motion)
  self:recurse(voxel_map, seen, next_voxel:plus(HORIZONTAL):plus(VERTICAL), motion)
end

function CollisionDetector:reduce_collision_set(motions)
  local voxel_map = {}
  for _, motion in ipairs(motions) do
    self:recurse(voxel_map, {}, self:voxel_hash(motion.pos_one), motion)
  end
  local result = {}
  for _, group in pairs(voxel_map) do
    if #group > 1 then
      table.insert(result, group)
    end
  end
  return result
end

function CollisionDetector:handle_new_frame(frame)
  local motions = {}
  local seen = {}
  for _, aircraft in ipairs(frame) do
    local old_position = self.state[aircraft.callsign]
    local new_position = aircraft.position
    self.state[aircraft.callsign] = new_position
    seen[aircraft.callsign] = true
    table.insert(motions, Motion.new(aircraft.callsign, old_position or new_position, new_position))
  end
  for callsign in pairs(self.state) do
    if not seen[callsign] then
      self.state[callsign] = nil
    end
  end
  local collisions = {}
  for _, group in ipairs(self:reduce_collision_set(motions)) do
    for i = 1, #group do
      local motion1 = group[i]
      for j = i + 1, #group do
        local motion2 = group[j]
        local collision = motion1:find_intersection(motion2)
        if collision ~= nil then
          table.insert(collisions, {a = motion1.callsign, b = motion2.callsign, position = collision})
        end
      end
    end
  end
  return collisions
end

local Simulator = {}
Simulator.__index = Simulator

function Simulator.new(num_aircraft)
  local callsigns = {}
  for i = 0, num_aircraft - 1 do
    table.insert(callsigns, "flight" .. i)
  end
  return setmetatable({callsigns = callsigns}, Simulator)
end

function Simulator:simulate(time)
  local frame = {}
  local callsigns = self.callsigns
  for i = 0, #callsigns - 1, 2 do
    table.insert(frame, {callsign = callsigns[i + 1],
                         position = Vector3D.new(time, math.cos(time) * 2 + i * 3, 10.0)})
    table.insert(frame, {callsign = callsigns[i + 2],
                         position = Vector3D.new(time, math.sin(time) * 2 + i * 3, 10.0)})
  end
  return frame
end

local simulator = Simulator.new(100)
local detector = CollisionDetector.new()
local count, where = 0, 0
for i = 0, 39 do
  local collisions = detector:handle_new_frame(simulator:simulate(i / 10))
  count = count + #collisions
  for _, collision in ipairs(collisions) do
    where = where + math.floor(collision.position.y * 100) + #collision.a
  end
end
print(string.format("cd: collisions = %d, where = %d", count, where))
