-- A Lua function called as a generic for's iterator is one level on Lua's
-- C stack (OP_TFORCALL's luaD_call), so an iterator recursing through
-- loops of its own ends in 'C stack overflow' at about 200 levels, as
-- nested pcalls do, inside a coroutine too; a yield inside it is allowed.
local depth = 0
local function it(s, c)
  depth = depth + 1
  if c < 1000 then for _ in it, s, c + 1 do end end
  return nil
end
print(pcall(it, nil, 0))
print(depth)
depth = 0
print(coroutine.wrap(function() return pcall(it, nil, 0) end)())
print(depth)

local function pdepth()
  local n = 0
  local function f() n = n + 1 return pcall(f) end
  f()
  return n
end
local function nest(k)
  if k == 0 then return pdepth() end
  for x in function(s, c) if not c then return nest(k - 1) end end do return x end
end
print("nest 10", nest(10))
print("nest 250", pcall(nest, 250))
print("in a coroutine", coroutine.wrap(function() return nest(10) end)())

local co = coroutine.wrap(function()
  for x in function(s, c) if not c then coroutine.yield("yielded") return pdepth() end end do return x end
end)
print(co())
print("after the yield", co())
