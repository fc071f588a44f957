local store = {}
local t = setmetatable({}, {__newindex = store})
t.a = 1
print(rawget(t, "a"), store.a)
t.a = 2
print(store.a)
local u = setmetatable({}, {__newindex = store, __index = store})
u.b = 5
print(u.b, rawget(u, "b"))
