-- Inspecting and changing the locals of running functions.
local function locals_of(level)
  local out = {}
  local i = 1
  while true do
    local name, value = debug.getlocal(level + 1, i)
    if not name then break end
    if name:sub(1, 1) ~= "(" then          -- named locals only, no temporaries
      out[#out + 1] = name .. "=" .. tostring(value)
    end
    i = i + 1
  end
  return table.concat(out, " ")
end

local function area(w, h)
  local result = w * h
  print("in area:", locals_of(1))
  return result
end
print(area(3, 4))

local function varargs(a, ...)
  local n = select("#", ...)
  for i = 1, n do
    print(debug.getlocal(1, -i))
  end
  print(debug.getlocal(1, -(n + 1)))
end
varargs(1, "x", false, 30)

-- setlocal changes a caller's local
local function bump(level, name, value)
  local i = 1
  while true do
    local n = debug.getlocal(level + 1, i)
    if n == nil then return false end
    if n == name then
      return debug.setlocal(level + 1, i, value)
    end
    i = i + 1
  end
end

local function counter()
  local count = 10
  bump(1, "count", 99)
  return count
end
print(counter())

-- a captured local, seen and set through its closure's frame
local function shared()
  local total = 1
  local add = function (x) total = total + x end
  add(4)
  print(debug.getlocal(1, 1))
  debug.setlocal(1, 1, 100)
  add(1)
  return total
end
print(shared())

-- parameter names of a function value
local function params(alpha, beta, ...) local gamma end
print(debug.getlocal(params, 1), debug.getlocal(params, 2), debug.getlocal(params, 3))
print(debug.getlocal(print, 1))

-- scopes: a block's local is gone after its end
local function scoped()
  do
    local inner = "in"
    print(debug.getlocal(1, 1))
  end
  local after = "after"
  print(debug.getlocal(1, 1))
end
scoped()

print(pcall(debug.getlocal, 50, 1))
print(pcall(debug.setlocal, 50, 1, 2))
print(pcall(debug.setlocal, 1, 1))
