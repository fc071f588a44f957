-- Leaving a block whose locals a closure captured, Lua 5.4.4 runs OP_CLOSE
-- at the line of the block's last token, which saves the position an
-- integer division by zero after it names.  (Found by the campaign.)
local function label_at_end()
  do
    local n = 0
    local g = function() n = n + 1 end
    if n then goto l1 end
    ::l1::
  end
  return 1 // 0
end
print(pcall(label_at_end))
local function plain_block()
  do
    local n = 0
    local g = function() return n end
    n = 2
  end
  local a = 1
  return a % 0
end
print(pcall(plain_block))
local function statement_last()
  do
    local n = 0
    local g = function() n = n + 1 end
    print("x")
  end
  return 1 // 0
end
print(pcall(statement_last))
local function loop_body()
  for i = 1, 2 do
    local g = function() return i end
    local x = i
  end
  return 1 % 0
end
print(pcall(loop_body))
local function if_branch(c)
  if c then
    local n = 1
    local g = function() return n end
    n = 3
  else
    local m = 2
  end
  return 1 // 0
end
print(pcall(if_branch, true))
local function nothing_captured()
  do
    local n = 0
    n = n + 1
  end
  return 1 // 0
end
print(pcall(nothing_captured))
-- A block's <close> variables close there too.
local function to_be_closed()
  do
    local x <close> = nil
    local y = 1
  end
  return 1 // 0
end
print(pcall(to_be_closed))
-- A repeat's captured locals close after its condition.
local function repeat_until()
  local c = 0
  repeat
    local x = 1
    local g = function() return x end
    c = c + 1
  until c > 0
  return 1 // 0
end
print(pcall(repeat_until))
