-- A key held in a local that a closure captured is read when the store
-- runs, after the value: the value's call can change it.
local idx = 1
local function nexti() idx = idx + 1; return idx end

local t = {}
t[idx] = nexti()
print(t[1], t[2])

idx = 1
local u = {[idx] = nexti()}
print(u[1], u[2])

idx = 1
local w = {{}, {}, {}}
w[idx][idx] = nexti()          -- the table w[1] is read first, the key last
print(w[1][1], w[1][2], w[2][2])

idx = 1
local p = {}
p[(idx)] = nexti()
print(p[1], p[2])

idx = 1
local m = {}
m[idx], m.other = nexti(), "x"
print(m[1], m[2], m.other)

-- a key that is not captured, or an upvalue key, is read before
local plain = 1
local function bump() plain = plain + 1 return plain end
local q = {}
q[plain] = (function() return "v" end)()
print(q[1])
local function inner()
  local r = {}
  r[idx] = nexti()
  return r[1], r[2], r[3]
end
idx = 1
print(inner())
print(bump())
