-- Errors raised by __close handlers while an error unwinds replace it, in
-- order; each handler sees the error so far and the protected call as caller.
local function closer(f) return setmetatable({}, {__close = f}) end
local seen = {}

local function job()
  local a <close> = closer(function (_, e)
    seen[#seen + 1] = "a got " .. tostring(e) .. " from " .. tostring(debug.getinfo(2, "n").name)
  end)
  local b <close> = closer(function (_, e)
    seen[#seen + 1] = "b got " .. tostring(e)
    error("b failed", 0)
  end)
  local c <close> = closer(function (_, e)
    -- a handler with its own <close> variable, itself failing
    local inner <close> = closer(function (_, e2)
      seen[#seen + 1] = "inner got " .. tostring(e2)
    end)
    seen[#seen + 1] = "c got " .. tostring(e)
    error("c failed", 0)
  end)
  error("job failed", 0)
end

print(pcall(job))
for _, s in ipairs(seen) do print(s) end
