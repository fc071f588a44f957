local function closer(name) return setmetatable({}, {__close = function() print("close", name) end}) end
for i = 1, 3 do
  local c <close> = closer(i)
  if i == 2 then break end
  print("iter", i)
end
print("done")
