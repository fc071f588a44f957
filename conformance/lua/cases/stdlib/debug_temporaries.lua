-- While a call runs, debug.getlocal numbers the caller's temporaries as
-- Lua's register allocator places them: a binary operator's left operand
-- waits in the register its result will take, below the called function.
local function show(level)
  local out = {}
  for i = 1, 10 do
    local name, value = debug.getlocal(level + 1, i)
    if not name then break end
    out[#out + 1] = name .. '=' .. tostring(value)
  end
  return table.concat(out, ' ')
end

local seen = {}
function probe()
  seen[#seen + 1] = show(2)
  return 1
end

function sum(a, b) return (a + 1) + probe() end
function scaled(a) local r = a * 2 - probe() return r end
function compare(a) return a + 3 < probe() end
function global_left(a) return limit - probe() end
limit = 7

print(sum(0, 0), scaled(4), compare(1), global_left(0))
for _, s in ipairs(seen) do print(s) end

-- setlocal on a temporary changes the value the operator then reads.
function bump()
  debug.setlocal(2, 3, 10)
  return 20
end
function total(a, b) return (a + 1) + bump() end
print(total(0, 0))
