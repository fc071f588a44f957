-- Lua 5.4.4 raises an integer division or modulo by zero without saving the
-- instruction's position: the message names the line of the last
-- instruction that saved it (a call, a concatenation, a length, a closure,
-- a new field, a for loop), else the line where the function starts.
-- (Found by the campaign.)
local function starts(n)
  local a = n + 1
  return a // 0
end
print(pcall(starts, 1))
local function after_call(n)
  local s = tostring(n)
  local a = n
  return a % 0
end
print(pcall(after_call, 1))
local function after_concat(n)
  local s = "x" .. n
  local t = {}
  return n // 0
end
print(pcall(after_concat, 1))
local function in_a_loop(n)
  local t = {}
  for i = 1, 2 do
    local x = i % 0
  end
end
print(pcall(in_a_loop, 1))
local function after_a_field(n)
  local t = {1, 2}
  t.k = n
  local u = -n
  return (n + 2) // 0
end
print(pcall(after_a_field, 1))
local function branches(n, ...)
  local c = select("#", ...)
  if n > 0 then
    return n // 0
  end
end
print(pcall(branches, 1, 2))
print(pcall(function(n) local len = #"abc" return n % 0 end, 3))
print(pcall(function(n)
  return n // 0
end, 3))
print(pcall(load("local n = 1\n\nreturn n % 0")))
-- Float divisions by zero are no error.
print(1 // 0.0, -1 % math.huge, 1 % -0.0 ~= 1 % -0.0)
