local function f(...)
  local a, b = ...
  local c = ...
  return a, b, c
end
print(f(1, 2, 3))
print(f(1))
