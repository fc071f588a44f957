-- An integer division by zero names the line of the last instruction that
-- saved Lua's position.  A comparison against a folded or parenthesised
-- numeral is Lua's EQK, which saves none: the line is the function's.
local function f(n)
  local a = 1

  if n <= 0 then return ((1e15 + 0.3) == (0.1 + 0.2)) - (n % n) end
end
print(pcall(f, 0))

local function g(n)
  local b = (-3) ~= n

  return b, n // n
end
print(pcall(g, 0))

local function h(n, s)
  local same = s == ("x" .. s)

  return same, n % n
end
print(pcall(h, 0, "y"))

local function k(n)
  local big = (2^53) == n

  return big, n % n
end
print(pcall(k, 0))
