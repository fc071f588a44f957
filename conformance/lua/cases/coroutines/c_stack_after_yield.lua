-- A coroutine resumed after a yield counts its caller's C levels and one
-- more, not the calls (pcall, a metamethod, a for iterator) it yielded
-- inside of: Lua finishes those without the C stack (unroll).
local function depth()
  local n = 0
  local function f() n = n + 1 return pcall(f) end
  f()
  return n
end
local co = coroutine.wrap(function()
  print("body", depth())
  pcall(function()
    print("in pcall", depth())
    coroutine.yield()
    print("in pcall after yield", depth())
    pcall(function()
      print("in pcall2", depth())
      coroutine.yield()
      print("in pcall2 after yield", depth())
    end)
    print("back in pcall", depth())
  end)
  print("body after", depth())
  local t = setmetatable({}, {__index = function(t, k) coroutine.yield() return depth() end})
  print("__index after yield", t[1])
  local function it(s, c)
    if c < 1 then coroutine.yield() return c + 1, depth() end
  end
  for i, d in it, nil, 0 do print("iterator after yield", i, d) end
  print("body at end", depth())
end)
for _ = 1, 5 do co() end
