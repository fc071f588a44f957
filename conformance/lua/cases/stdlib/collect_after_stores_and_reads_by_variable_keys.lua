-- A table stored or read under a variable key is garbage once no variable
-- holds it: the store's and the read's own scratch keep nothing alive.
local n = 0
local mt = {__gc = function() n = n + 1 end}
local t = {}
local k = 1
t[k] = setmetatable({}, mt)
t = nil
collectgarbage()
print("store", n)

n = 0
local objs = {}
for i = 1, 5 do objs[i] = setmetatable({id = i}, mt) end
objs = nil
collectgarbage()
print("array", n)

n = 0
local h = {}
for i = 1, 5 do h["k" .. i] = setmetatable({}, mt) end
h = nil
collectgarbage()
print("hash", n)

n = 0
local src = {setmetatable({}, mt)}
local key = 1
local v = src[key]
src, v = nil, nil
collectgarbage()
print("read", n)

local cache = setmetatable({}, {__mode = "v"})
local name = "x"
cache[name] = {}
collectgarbage()
print("weak", cache[name])

local Obj = {}
Obj.__index = Obj
function Obj:get() return self.v end
local o = setmetatable({v = 1}, Obj)
local weak = setmetatable({o}, {__mode = "v"})
print(o:get())
o = nil
collectgarbage()
print("method", weak[1])
