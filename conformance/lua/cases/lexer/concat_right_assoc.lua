local mt = {__concat = function(a, b)
  local x = type(a) == "table" and a[1] or a
  local y = type(b) == "table" and b[1] or b
  return "(" .. x .. "," .. y .. ")"
end}
local A = setmetatable({"A"}, mt)
print("x" .. A .. "y")
print(A .. "y" .. "z")
