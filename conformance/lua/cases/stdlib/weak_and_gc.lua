-- weak tables and finalizers, as Lua defines them
local function fill_values(t)
  t[1] = {}; t[2] = "a string"; t[3] = 10; t.x = {}; t.fn = function() end
end
local kept = {}
local wv = setmetatable({}, {__mode = "v"})
fill_values(wv)
wv.kept = kept
collectgarbage()
print(wv[1], wv[2], wv[3], wv.x, wv.fn, wv.kept == kept)

local wk = setmetatable({}, {__mode = "k"})
local function fill_keys(t)
  t[{}] = 1; t["str"] = 2; t[kept] = 3
  local e = {}
  t[e] = {e}          -- an ephemeron: the value refers to its key only
end
fill_keys(wk)
collectgarbage()
local count = 0
for k, v in pairs(wk) do count = count + 1 end
print(count, wk.str, wk[kept])

local order = {}
local function make(i) setmetatable({}, {__gc = function() order[#order + 1] = i end}) end
for i = 1, 5 do make(i) end
collectgarbage()
print(table.concat(order, " "))

local saved
local function resurrect()
  setmetatable({name = "back"}, {__gc = function(o) saved = o end})
end
resurrect()
collectgarbage()
print(saved and saved.name, getmetatable(saved) ~= nil)
saved = nil
collectgarbage()

-- __gc present when the metatable is set marks the object; set later, it does not
local log = {}
local function marks()
  local mt = {__gc = true}
  setmetatable({}, mt)
  mt.__gc = function() log[#log + 1] = "marked" end
  local late = {}
  setmetatable({}, late)
  late.__gc = function() log[#log + 1] = "not marked" end
end
marks()
collectgarbage()
print(table.concat(log, " "))

print(collectgarbage("isrunning"), collectgarbage("stop"), collectgarbage("isrunning"))
print(collectgarbage("restart"), collectgarbage("isrunning"), collectgarbage("step"))
print(collectgarbage("incremental"), collectgarbage("generational"), collectgarbage("incremental"))
print(pcall(collectgarbage, "bogus"))
setmetatable({}, {__gc = function() print("finalized when the state closes") end})
