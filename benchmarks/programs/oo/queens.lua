-- Queens: places eight queens by backtracking, the board's free rows and
-- diagonals kept as boolean arrays in the benchmark object's fields and
-- read and written through small methods.
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

local Queens = setmetatable({}, {__index = Benchmark})
Queens.__index = Queens

function Queens.new(expected)
  return setmetatable({expected = expected}, Queens)
end

function Queens:benchmark()
  local result = true
  for _ = 1, 10 do
    result = result and self:queens()
  end
  return result
end

function Queens:queens()
  self.free_rows, self.free_maxs, self.free_mins, self.queen_rows = {}, {}, {}, {}
  for i = 1, 8 do
    self.free_rows[i] = true
    self.queen_rows[i] = -1
  end
  for i = 1, 16 do
    self.free_maxs[i] = true
    self.free_mins[i] = true
  end
  return self:place_queen(1)
end

function Queens:place_queen(c)
  for r = 1, 8 do
    if self:get_row_column(r, c) then
      self.queen_rows[r] = c
      self:set_row_column(r, c, false)
      if c == 8 then
        return true
      end
      if self:place_queen(c + 1) then
        return true
      end
      self:set_row_column(r, c, true)
    end
  end
  return false
end

function Queens:get_row_column(r, c)
  return self.free_rows[r] and self.free_maxs[c + r] and self.free_mins[c - r + 8]
end

function Queens:set_row_column(r, c, v)
  self.free_rows[r] = v
  self.free_maxs[c + r] = v
  self.free_mins[c - r + 8] = v
end

local queens = Queens.new(true)
if not queens:inner_benchmark_loop(120) then
  error("queens: wrong result")
end
print("queens: " .. table.concat(queens.queen_rows, " "))
