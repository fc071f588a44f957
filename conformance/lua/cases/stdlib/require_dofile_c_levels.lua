-- require runs searchers and loaders with lua_call (a C level each, and no
-- yield may cross it); dofile runs its chunk with lua_callk (a C level too,
-- but a yield may cross it).
package.preload.pauses = function() coroutine.yield("module body") return "loaded" end
local co = coroutine.create(function() return require("pauses") end)
print(coroutine.resume(co))
print(coroutine.status(co))

local saved = package.searchers[1]
package.searchers[1] = function() coroutine.yield("searching") end
co = coroutine.create(function() return require("whatever") end)
print(coroutine.resume(co))
package.searchers[1] = saved

local name = os.tmpname()
local f = io.open(name, "w")
f:write("local got = coroutine.yield('chunk body') return 'done with ' .. got")
f:close()
co = coroutine.create(function() return dofile(name) end)
print(coroutine.resume(co))
print(coroutine.resume(co, "resume value"))

-- nested requires and dofiles each take C levels before the limit
local depth = 0
local function again()
  depth = depth + 1
  package.loaded.again = nil
  package.preload.again = again
  pcall(require, "again")
end
again()
print("require depth", depth)

f = io.open(name, "w")
f:write("NEST()")
f:close()
depth = 0
function NEST() depth = depth + 1 pcall(dofile, name) end
NEST()
print("dofile depth", depth)
os.remove(name)
