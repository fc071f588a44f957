local mt = {}
mt.__lt = function(a, b) return a.v < b.v end
mt.__le = function(a, b) return a.v <= b.v end
local function V(v) return setmetatable({v = v}, mt) end
print(V(1) < V(2), V(2) < V(1), V(1) <= V(1), V(2) >= V(1), V(1) > V(2))
