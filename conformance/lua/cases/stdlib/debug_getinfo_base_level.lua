-- Past the main chunk, getinfo finds the C function that called it, as the
-- traceback's last line shows ([C]: in ?); one more level is nothing.
local base = debug.getinfo(2)
print(base.what, base.source, base.short_src, base.currentline, base.linedefined,
      base.lastlinedefined, base.nups, base.nparams, base.isvararg, base.namewhat,
      base.name, base.istailcall, type(base.func))
print(debug.getinfo(3))
local function depth()
  local n = 0
  while debug.getinfo(n + 1, "S") do n = n + 1 end
  return n
end
print("from a function", depth())
print("through pcall", select(2, pcall(depth)))
print("inside a coroutine", coroutine.wrap(depth)())
