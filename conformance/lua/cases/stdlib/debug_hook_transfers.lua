-- Call and return hooks see library functions too, with the values
-- passed in and out (getinfo's "r" fields and getlocal).
local seen = {}
local function values_of(level, event)
  local ar = debug.getinfo(level + 1, "r")
  local t = {}
  for i = ar.ftransfer, ar.ftransfer + ar.ntransfer - 1 do
    local _, v = debug.getlocal(level + 1, i)
    t[#t + 1] = tostring(v)
  end
  return table.concat(t, ",")
end

local recording = false
local function hook(event)
  if not recording then return end
  local info = debug.getinfo(2, "nS")
  seen[#seen + 1] = string.format("%s %s %s [%s]", event, info.what,
                                  tostring(info.name), values_of(2, event))
end

local function add(a, b) return a + b end

debug.sethook(hook, "cr")
recording = true
local m = math.max(3, 9, 4)
local s = add(m, 1)
local u = string.upper("abc")
recording = false
debug.sethook()
for _, line in ipairs(seen) do print(line) end
print(m, s, u)

-- inside a hook, the hook is a level of its own
local notes = {}
debug.sethook(function ()
  local me = debug.getinfo(1, "n")
  notes[#notes + 1] = me.namewhat .. " " .. me.name
  local second = string.match(debug.traceback(), "\n(.-)\n")
  notes[#notes + 1] = second:match("in (.*)$")
  debug.sethook()
end, "l")
local x = 1
print(table.concat(notes, " | "))

-- the registry holds each thread's hook in a weak-keyed table
print(getmetatable(debug.getregistry()._HOOKKEY).__mode)
