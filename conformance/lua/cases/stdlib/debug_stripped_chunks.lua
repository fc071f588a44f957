-- The debug library on code loaded from a stripped dump: locals have no
-- names but their values are there, upvalues are "(no name)", and line
-- hooks see no lines (nil at the function's start and at each jump back).
local prog = [[
local debug = require 'debug'
local base = 12
local seen = {}
for i = 1, 3 do
  local name, value = debug.getlocal(1, i)
  seen[#seen + 1] = tostring(name) .. '=' .. (value == debug and 'debug' or type(value) == 'table' and 'a table' or tostring(value))
end
print(table.concat(seen, ' '))

local get = function () return base end
print(debug.getupvalue(get, 1))
print(debug.setupvalue(get, 1, 13), base, get())
print(debug.getinfo(1, 'l').currentline, next(debug.getinfo(get, 'L').activelines))
return base
]]
print(load(string.dump(load(prog), true))())

-- A captured local that is never assigned is still one variable with the
-- closure's upvalue.
local limit = 10
local check = function (n) return n <= limit end
debug.setupvalue(check, 1, 3)
print(limit, check(5))

local function countdown(n)
  local steps = 0
  while n > 0 do n = n - 1; steps = steps + 1 end
  return steps
end
local stripped = load(string.dump(countdown, true))
local lines = {}
debug.sethook(function (event, line) lines[#lines + 1] = tostring(line) end, 'l')
local steps = stripped(3)
debug.sethook()
print(steps, table.concat(lines, ' '))
