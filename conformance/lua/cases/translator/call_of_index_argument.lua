-- a call whose argument indexes a table passed in (t[k] as the last operand)
local function f(g, t, k) return g(t[k]) end
print(f(tostring, {5}, 1))
local function h(t, k, v) t[k] = t[k] .. v; return t[k] end
print(h({"a"}, 1, "b"))
local function m(t, k) local x = t[k]; t[k] = x + 1; return print(t[k]) end
m({10}, 1)
