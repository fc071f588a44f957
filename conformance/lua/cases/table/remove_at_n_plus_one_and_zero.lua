local t = {1, 2, 3}
print(table.remove(t, #t + 1), #t)
local e = {}
print(table.remove(e, 0), table.remove(e, #e), table.remove(e, 1))
local z = {[0] = "zero"}
print(table.remove(z, 0), z[0])
