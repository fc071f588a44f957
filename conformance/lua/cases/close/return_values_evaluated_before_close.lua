local function f()
  local t = {v = "before"}
  local c <close> = setmetatable({}, {__close = function() t.v = "after" end})
  return t.v, t
end
local v, t = f()
print(v, t.v)
