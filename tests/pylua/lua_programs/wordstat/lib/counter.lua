-- A counting multiset with metamethods: + merges, .. joins, # is the
-- number of distinct keys, == compares contents, calling it increments.
local Counter = {}
Counter.__index = Counter

local function new(init)
  local c = setmetatable({counts = {}, n = 0}, Counter)
  for k, v in pairs(init or {}) do c(k, v) end
  return c
end

function Counter.__call(self, key, by)
  by = by or 1
  if self.counts[key] == nil then self.n = self.n + 1 end
  self.counts[key] = (self.counts[key] or 0) + by
  return self
end

function Counter.__len(self) return self.n end

function Counter.__add(a, b)
  local r = new(a.counts)
  for k, v in pairs(b.counts) do r(k, v) end
  return r
end

function Counter.__eq(a, b)
  if #a ~= #b then return false end
  for k, v in pairs(a.counts) do
    if b.counts[k] ~= v then return false end
  end
  return true
end

function Counter.__concat(a, b)
  return tostring(a) .. tostring(b)
end

function Counter:most_common(n)
  local keys = {}
  for k in pairs(self.counts) do keys[#keys + 1] = k end
  table.sort(keys, function(x, y)
    local cx, cy = self.counts[x], self.counts[y]
    if cx ~= cy then return cx > cy end
    return x < y
  end)
  local out = {}
  for i = 1, math.min(n, #keys) do out[i] = {keys[i], self.counts[keys[i]]} end
  return out
end

function Counter.__tostring(self)
  local parts = {}
  for _, kv in ipairs(self:most_common(3)) do
    parts[#parts + 1] = string.format("%s=%d", kv[1], kv[2])
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

return setmetatable({new = new}, {__call = function(_, init) return new(init) end})
