-- Where an expression spans lines, Lua names the line where its code
-- generator emits the failing instruction: an index once its key is read,
-- a method's SELF at the method's name, a comparison after its right
-- operand, a numeric for's checks at its 'do'.
local function report(f)
  local ok, err = pcall(f)
  print(ok, err)
end

report(function()
  local t = {}
  local v = t.a
    .b
  return v
end)

report(function()
  local t = {}
  return t
    [1]
    .b
end)

report(function()
  local s
  return s
    :upper()
end)

report(function()
  local o = {}
  return o.inner
    :method()
end)

report(function()
  local a, b = {}, {}
  return a <
    b
end)

report(function()
  local a = {}
  if a >=
     1 then return 1 end
end)

report(function()
  for i = 1, nil
  do end
end)

report(function()
  for i = 1,
      10,
      0
  do end
end)

report(function()
  local t = {}
  t.a
   .b = 1
end)
