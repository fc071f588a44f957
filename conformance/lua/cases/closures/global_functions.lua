function gf(x) return x * 2 end
print(gf(21), type(gf), _G.gf == gf)
local t = {a = {}}
function t.a.b(x) return x + 1 end
function t.a:c(x) return self == t.a, x end
print(t.a.b(1), t.a:c(5))
