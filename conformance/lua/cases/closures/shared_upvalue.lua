local function pair()
  local v = 0
  return function() v = v + 1 end, function() return v end
end
local inc, get = pair()
inc(); inc()
print(get())
