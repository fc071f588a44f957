local function lib(x) error("bad input: " .. tostring(x), 2) end
local function user()
  lib(5)  -- line 3
end
print(pcall(user))
