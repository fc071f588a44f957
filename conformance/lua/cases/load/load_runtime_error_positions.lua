local f = load("local a = nil\nreturn a.b", "=chunk")
print(pcall(f))
local g = load("return ...", "=varargs")
print(g(1, 2, 3))
