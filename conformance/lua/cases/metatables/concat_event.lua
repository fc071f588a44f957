local mt = {__concat = function(a, b)
  local function s(v) return type(v) == "table" and "T" or tostring(v) end
  return s(a) .. "+" .. s(b)
end}
local t = setmetatable({}, mt)
print(t .. "x", "x" .. t, 1 .. t, t .. t)
print("a" .. "b" .. t)
