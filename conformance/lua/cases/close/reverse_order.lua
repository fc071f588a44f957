local function closer(name) return setmetatable({}, {__close = function() print("close", name) end}) end
do
  local a <close> = closer("a")
  local b <close> = closer("b")
  local c <close> = closer("c")
end
