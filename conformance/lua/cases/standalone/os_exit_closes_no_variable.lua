-- os.exit without closing the state exits at once (lua.c's exit()): no
-- pending <close> variable is closed, in the main thread or a coroutine.
local t <close> = setmetatable({}, {__close = function() print("closed main") end})
local co = coroutine.wrap(function()
  local u <close> = setmetatable({}, {__close = function() print("closed co") end})
  pcall(function()
    local w <close> = setmetatable({}, {__close = function() print("closed in pcall") end})
    print("exiting")
    os.exit(0)
  end)
end)
co()
