-- The reference interpreter is built with LUA_COMPAT_5_3 (as Lua's makefile
-- builds it), which keeps Lua 5.2's atan2, cosh, sinh, tanh, pow, frexp,
-- ldexp and log10 in the math library; real code still calls them.  (Which of
-- math.atan and math.atan2 an argument error names depends on lua5.4's hash order.)
print(math.atan2 == math.atan, math.atan2(1, 2), math.atan2(-1, -1))
print(math.pow(2, 3), math.pow(2, 0.5), math.pow(-8, 1/3), math.pow(0, -1), math.type(math.pow(2, 2)))
print(math.cosh(1), math.sinh(1), math.tanh(1), math.cosh(1000), math.sinh(-1000), math.tanh(1000))
print(math.log10(1000), math.log10(0), math.log10(2))
print(math.frexp(8))
print(math.frexp(0))
print(math.frexp(-3))
print(math.frexp(1/0))
print(math.frexp(-1/0))
print(math.frexp(5e-324))
print(math.ldexp(0.5, 4), math.ldexp(1, 2.0), math.ldexp(1, 1024), math.ldexp(-1, 5000), math.ldexp(1, -1080), math.ldexp(1, 2^32 + 3))
print(math.ldexp("0.5", "3"))
print(pcall(math.ldexp, 1, 2.5))
print(pcall(math.pow, "x"))
print(pcall(math.pow, 2))
print(pcall(math.cosh))
print(pcall(math.frexp, {}))
print(pcall(math.log10, "a"))
local names = {}
for k in pairs(math) do names[#names + 1] = k end
table.sort(names)
print(table.concat(names, " "))
