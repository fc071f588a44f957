-- error's level counts within the running coroutine: a level past its
-- first function has no position (it is not the resumer's).
local co = coroutine.wrap(function()
  local function f(n) error("msg", n) end
  print(pcall(f, 1))
  print(pcall(f, 2))
  print(pcall(f, 3))
  print(pcall(f, 4))
  print(pcall(f, 5))
  local function g(n) f(n) end
  print(pcall(g, 3))
  print(pcall(g, 4))
end)
co()
local function f(n) error("msg", n) end
print(pcall(f, 3))
print(pcall(f, 4))
