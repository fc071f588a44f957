-- A generic for calls its iterator as Lua calls a C function (OP_TFORCALL's
-- luaD_call): one more level on the C stack, so a loop entered with no room
-- left is a C stack overflow positioned at the loop, and pcall nests one
-- level less inside an iterator, a Lua function too.  (Found by the
-- campaign.)
local function depth()
  local n = 0
  local function f() n = n + 1 return pcall(f) end
  f()
  return n
end
print("base", depth())
local function it(s, c) if c < 1 then return c + 1, depth() end end
for i, d in it, nil, 0 do print("lua iterator", i, d) end
for d in coroutine.wrap(function() coroutine.yield(depth()) end) do print("wrap iterator", d) end
local t = setmetatable({}, {__index = function(t, k) if k < 2 then return depth() end end})
for i, d in ipairs(t) do print("ipairs __index", i, d) end
for k, v in next, {10} do print("next", k, v, depth()) end

-- Recursion through pcall: the innermost loop cannot call its iterator.
local function rec(d)
  local l = {(select(2, pcall(rec, d + 1))), 4}
  if d >= 195 then print(d, "list", l[1]) end
  for k, v in ipairs(l) do
    print(d, k, pcall(function() return "body" end))
  end
end
print(pcall(rec, 1))
