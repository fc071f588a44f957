-- a length whose next instructions are not "t[#t + 1] = v"
local function f(g, t) return g(#t) end
print(f(tostring, {1, 2, 3}))
local function h(t, s) local n = #t; t[n + 1] = s .. n; return #t, t[#t] end
print(h({"a"}, "b"))
print(pcall(function() local x = 1 return tostring(#x) end))
