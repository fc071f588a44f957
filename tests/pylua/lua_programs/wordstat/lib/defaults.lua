-- Settings with defaults: reads fall through to the defaults table, writes
-- are checked, and unknown names are an error at the caller's level.
local defaults = {top = 5, min_length = 1, stop = "the,a,an,and,of,to"}

local values = {}
local settings = setmetatable({}, {
  __index = function(_, k)
    local v = values[k]
    if v ~= nil then return v end
    v = defaults[k]
    if v == nil then error("unknown setting '" .. tostring(k) .. "'", 2) end
    return v
  end,
  __newindex = function(_, k, v)
    if defaults[k] == nil then error({code = "bad-setting", name = k}) end
    if type(v) ~= type(defaults[k]) then
      error(string.format("setting '%s' expects a %s", k, type(defaults[k])), 2)
    end
    values[k] = v
  end,
  __pairs = function()
    local merged = {}
    for k, v in pairs(defaults) do merged[k] = values[k] or v end
    return next, merged, nil
  end,
})

return settings
