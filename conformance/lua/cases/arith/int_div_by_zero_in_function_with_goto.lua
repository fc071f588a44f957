-- A function with a goto runs as a dispatcher over basic blocks: the saves
-- its loops and blocks make there name a division's line too
-- (found by the campaign: 134000209, 134000240).
local function numeric(a)
  for i = 1, 2 do
    local n = 0
    local f = function() n = n + 1 end
    if a then goto continue end
    ::continue::
  end
  return 255, (3 % a)
end
print(pcall(numeric, 0))
local function generic(t, n)
  for _, v in ipairs(t) do
    local x = v
    local g = function() return x end
    if v then goto skip end
    ::skip::
  end
  return 1 // n
end
print(pcall(generic, {1, 2}, 0))
print(pcall(generic, {}, 0))
local function labelled(n, c)
  local k = 0
  ::top::
  k = k + 1
  if k < 3 then
    if c then print(k) end
    goto top
  end
  return k // n
end
print(pcall(labelled, 0, false))
print(pcall(labelled, 0, true))
-- The same functions without goto, translated as structured code.
local function structured(t, n)
  for _, v in ipairs(t) do
    local x = v
    local g = function() return x end
  end
  return 1 // n
end
print(pcall(structured, {1, 2}, 0))
print(pcall(structured, setmetatable({}, {__index = function(_, i) if i < 3 then return i end end}), 0))
