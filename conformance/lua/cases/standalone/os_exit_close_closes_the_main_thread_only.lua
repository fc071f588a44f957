-- os.exit(code, true) closes the state: lua_close closes the main thread's
-- pending <close> variables (with no error), not a coroutine's.
local t <close> = setmetatable({}, {__close = function(_, e) print("closed main", e) end})
local co = coroutine.wrap(function()
  local u <close> = setmetatable({}, {__close = function() print("closed co") end})
  pcall(function()
    local w <close> = setmetatable({}, {__close = function() print("closed in pcall") end})
    os.exit(0, true)
  end)
end)
co()
