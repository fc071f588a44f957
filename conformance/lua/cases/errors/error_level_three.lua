local function inner() error("from inner", 3) end
local function middle() inner() end
local function outer()
  middle()  -- line 4
end
print(pcall(outer))
