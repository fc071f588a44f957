-- t.k = t.k op c on own fields, inherited fields (so __newindex), strings,
-- metamethods, missing fields and integer wrap-around.
local log = {}
local t = {n = 1, f = 1.5, s = "10", big = math.maxinteger, neg = math.mininteger}
t.n = t.n + 1; t.f = t.f * 2; t.s = t.s + 1; t.big = t.big + 1; t.neg = t.neg - 1
print(t.n, t.f, t.s, t.big, t.neg)
local Base = {count = 100}
local proxy = setmetatable({}, {__index = Base,
  __newindex = function(tt, k, v) log[#log + 1] = k .. "=" .. tostring(v) rawset(tt, k, v) end})
proxy.count = proxy.count + 1
proxy.count = proxy.count + 1
print(proxy.count, rawget(Base, "count"), table.concat(log, ","))
local w = {v = setmetatable({}, {__add = function(a, b) return "added" end})}
w.v = w.v + 1
print(w.v)
local function move(o, dx, dt) o.x = o.x + dx * dt o.n = o.n - dx * 2 return o.x, o.n end
print(move({x = 1.0, n = 10}, 0.5, 4))
print(move({x = 1, n = 10}, 3, 2))
print(pcall(function() local z = {} z.q = z.q + 1 end))
print(pcall(function() local z = {q = {}} z.q = z.q * 2 end))
