-- The message handler of lua.c turns an error object without __tostring
-- into "(error object is a table value)" and a traceback before the
-- <close> variables of the main chunk are closed; __tostring's text comes
-- alone.
local x <close> = setmetatable({}, {__close = function(_, e) print("close x", type(e), e) end})
local y <close> = setmetatable({}, {__close = function(_, e)
  print("close y", type(e), e)
  error(setmetatable({}, {__tostring = function() return "from y" end}))
end})
local function fail() error({}) end
fail()
