local function closer(name) return setmetatable({}, {__close = function() print("close", name) end}) end
local function f()
  local a <close> = closer("a")
  do
    local b <close> = closer("b")
    return "returned"
  end
end
print(f())
