-- Towers: the towers of Hanoi with thirteen disks, each pile a linked
-- stack of disk objects pushed and popped by methods that check the
-- rules and raise an error when one is broken.
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

local Disk = {}
Disk.__index = Disk

function Disk.new(size)
  return setmetatable({size = size, next = nil}, Disk)
end

local Towers = setmetatable({}, {__index = Benchmark})
Towers.__index = Towers

function Towers.new(expected)
  return setmetatable({expected = expected, piles = nil, moves_done = 0}, Towers)
end

function Towers:benchmark()
  self.piles = {}
  self:build_tower_at(1, 13)
  self.moves_done = 0
  self:move_disks(13, 1, 2)
  return self.moves_done
end

function Towers:push_disk(disk, pile)
  local top = self.piles[pile]
  if top and disk.size >= top.size then
    error("cannot put a big disk on a smaller one")
  end
  disk.next = top
  self.piles[pile] = disk
end

function Towers:pop_disk_from(pile)
  local top = self.piles[pile]
  if top == nil then
    error("attempting to remove a disk from an empty pile")
  end
  self.piles[pile] = top.next
  top.next = nil
  return top
end

function Towers:move_top_disk(from_pile, to_pile)
  self:push_disk(self:pop_disk_from(from_pile), to_pile)
  self.moves_done = self.moves_done + 1
end

function Towers:build_tower_at(pile, disks)
  for i = disks, 0, -1 do
    self:push_disk(Disk.new(i), pile)
  end
end

function Towers:move_disks(disks, from_pile, to_pile)
  if disks == 1 then
    self:move_top_disk(from_pile, to_pile)
  else
    local other_pile = 6 - from_pile - to_pile
    self:move_disks(disks - 1, from_pile, other_pile)
    self:move_top_disk(from_pile, to_pile)
    self:move_disks(disks - 1, other_pile, to_pile)
  end
end

local towers = Towers.new(8191)
if not towers:inner_benchmark_loop(45) then
  error("towers: wrong result " .. towers:benchmark())
end
print(string.format("towers: %d moves", towers:benchmark()))
