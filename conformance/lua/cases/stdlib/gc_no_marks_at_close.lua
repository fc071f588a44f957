-- A finalizer that marks its object again runs once more at lua_close, not forever.
local mt = {}
local runs = 0
function mt.__gc (o)
  runs = runs + 1
  io.write("gc ", runs, "\n")
  setmetatable(o, mt)
end
local function make () setmetatable({}, mt) end
make()
collectgarbage()
collectgarbage()
print("end of chunk")
