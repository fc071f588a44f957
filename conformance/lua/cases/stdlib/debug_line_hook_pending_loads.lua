-- Line events follow the lines Lua's code generator is on when it emits
-- each instruction: a table access or global that is a binary operator's
-- left operand loads at the operator, and an assignment stores where its
-- value list ends.
local function trace(src)
  local lines = {}
  local chunk = assert(load(src))
  debug.sethook(function (_, line) lines[#lines + 1] = line end, "l")
  chunk()
  debug.sethook()
  print(table.concat(lines, " "))
end

trace([[
local b = {10}
a = b[1]

+

b[1]
b = 4
]])

trace([[
local t = {x = 1, y = 2}
total = t.x
  * t.y
  + t.x
label = "x"
  .. t.x
  .. "y"
ok = t.x
  < t.y
]])

trace([[
local config = {name = "n", size = 3}
config.size = config.size
   + 1
local message = config.name ..
  ":" ..
  config.size
print(message)
]])

-- runtime errors are positioned the same way
print(pcall(load([[
local t = {}
local v = t.a
  + 1
]])))
print(pcall(load([[
local t = {}
x = t.missing.field
]])))
