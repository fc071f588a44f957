local function closer(name) return setmetatable({}, {__close = function() print("close", name) end}) end
local i = 0
::again::
do
  local c <close> = closer(i)
  i = i + 1
  if i < 3 then goto again end
end
print("end", i)
