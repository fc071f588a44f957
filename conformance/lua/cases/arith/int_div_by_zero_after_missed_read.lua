-- A table read whose fast path fails (no table, or no value at the key)
-- saves the VM's position, so a later integer division by zero in Lua
-- 5.4.4 names the read's line; a read that finds its value saves nothing.
local zero = 0
local function global_missing()
  local x = 1
  local y = undefined_global
  return x // zero
end
print(pcall(global_missing))
local function global_found()
  local x = 1
  local y = print
  return x % zero
end
print(pcall(global_found))
local t = {k = 1}
local function field_missing()
  local x = 1
  local y = t.missing
  return x % zero
end
print(pcall(field_missing))
local function field_found()
  local x = 1
  local y = t.k
  return x % zero
end
print(pcall(field_found))
local function index_missing(p, k)
  local x = 1
  local y = p[k]
  local z = t.k
  return x // zero
end
print(pcall(index_missing, {}, 1))
print(pcall(index_missing, {5}, 1))
local function through_index(p)
  local x = 1
  local y = p.field
  return x % zero
end
print(pcall(through_index, setmetatable({}, {__index = {field = 2}})))
local function string_field()
  local x = 1
  local y = ("abc").len
  return x % zero
end
print(pcall(string_field))
-- A later save (the call) counts when it runs after the miss.
local function in_a_loop()
  local x = 1
  for i = 1, 2 do
    tostring(i)
    if i == 1 then local y = t.missing end
  end
  return x // zero
end
print(pcall(in_a_loop))
-- A miss in an earlier iteration counts when no save runs after it (a for
-- loop's start saves only once).
local function earlier_iteration()
  local x = 1
  for i = 1, 2 do
    if i == 1 then local y = t.missing end
  end
  return x // zero
end
print(pcall(earlier_iteration))
