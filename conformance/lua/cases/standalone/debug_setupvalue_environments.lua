-- debug.setupvalue and debug.upvaluejoin on an upvalue read by constant
-- keys (_ENV for globals, or a module table): the function reads the new
-- table from then on, whether or not it ran before.
x = "global x"
local chunk = load("return x, print ~= nil")
debug.setupvalue(chunk, 1, {x = "env x"})
print(chunk())
local chunk2 = load("y = 5 return x")
local env = {}
debug.setupvalue(chunk2, 1, env)
print(chunk2(), env.y, y)
local ran = load("return x")
print(ran())
debug.setupvalue(ran, 1, setmetatable({}, {__index = function(_, k) return "indexed " .. k end}))
print(ran())
debug.setupvalue(ran, 1, nil)
print(pcall(ran))
debug.setupvalue(ran, 1, {x = "back"})
print(ran())

-- Penlight-style setfenv and getfenv
local function setfenv(f, t)
  local name
  local up = 0
  repeat
    up = up + 1
    name = debug.getupvalue(f, up)
  until name == '_ENV' or name == nil
  if name then
    debug.upvaluejoin(f, up, function() return name end, 1)
    debug.setupvalue(f, up, t)
  end
  return f
end
local function getfenv(fn)
  local i = 1
  while true do
    local name, val = debug.getupvalue(fn, i)
    if name == "_ENV" then return val elseif not name then break end
    i = i + 1
  end
end
local function f() return x, tostring ~= nil end
print(f())
setfenv(f, {x = "fenv x"})
print(f())
print(x, getfenv(f).x)

-- a module table as an upvalue
local M = {name = "first"}
local function name() return M.name end
print(name())
debug.setupvalue(name, 1, {name = "second"})
print(name(), M.name)
