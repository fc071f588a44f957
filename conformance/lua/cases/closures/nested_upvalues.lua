local function a()
  local x = 1
  return function()
    local y = 10
    return function()
      x = x + 1; y = y + 1
      return x + y
    end
  end
end
local b = a()
local c1, c2 = b(), b()
print(c1(), c1(), c2(), c1())
