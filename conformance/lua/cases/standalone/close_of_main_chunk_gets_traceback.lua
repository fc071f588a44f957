-- lua.c runs the main chunk under a message handler that adds the
-- traceback at the error: a <close> variable of the main chunk closed by an
-- uncaught error is given the message with that traceback.  (Found by the
-- campaign.)
local x <close> = setmetatable({}, {__close = function(_, e) print("close x", e) end})
local function deep(n)
  if n == 0 then local t = nil; return t.x end
  return (deep(n - 1))
end
local co = coroutine.wrap(function()
  local y <close> = setmetatable({}, {__close = function(_, e) print("close y", e) end})
  deep(2)
end)
co()
