-- an operand is given a register only once it is computed, as in Lua:
-- right-nested arithmetic and comparisons beside 190 locals compile
local function names(prefix, n)
  local t = {}
  for i = 1, n do t[i] = prefix .. i end
  return table.concat(t, ", ")
end
local function nested(depth, op, leaf)
  local left = {}
  for i = 1, depth do left[i] = i .. " " .. op .. " (" end
  return table.concat(left) .. leaf .. string.rep(")", depth)
end
local head = "local " .. names("a", 190) .. " = 1, 2\n"
for _, op in ipairs({"+", "-", "*", "&", "|", "~", "<<", ">>"}) do
  local f, err = load(head .. "return " .. nested(80, op, "a2"))
  print(op, f and f() or err)
end
print(load(head .. "return 1 < (2 + (3 + (4 + (5 + (6 + (7 + a1))))))")())
print(load(head .. "local x = 3 return x - (x * (a2 - (x + (a1 / (x + 0.5)))))")())
local t = {n = 1}
print(t.n + (2 + (t.n + 3)))
-- a constructor's items are stored every 50, so 70 of them fit
print(type(load(head .. "local t = {" .. string.rep("a1, ", 70) .. "} return t")))
