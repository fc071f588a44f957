-- A metamethod's level is named by its event, as 'metamethod'.
local Vector = {}
Vector.__index = function (v, key)
  local info = debug.getinfo(1, "n")
  print("lookup", key, info.namewhat, info.name)
  return 0
end
Vector.__newindex = function (v, key, value)
  local info = debug.getinfo(1, "n")
  print("store", key, info.namewhat, info.name)
  rawset(v, key, value)
end
for _, event in ipairs{"add", "sub", "mul", "concat", "lt", "le", "eq", "len", "unm"} do
  Vector["__" .. event] = function (a, b)
    local info = debug.getinfo(1, "n")
    print(event, info.namewhat, info.name)
    return event == "lt" or event == "le" or event == "eq" or a
  end
end
local v = setmetatable({}, Vector)
local w = setmetatable({}, Vector)
local _ = v.x
v.y = 1
_ = v + 1; _ = 2 - v; _ = v * v; _ = v .. "s"
_ = v < w; _ = v <= w; _ = v == w; _ = #v; _ = -v

-- and so in a traceback
local t = setmetatable({}, {__index = function (_, k) error("no field " .. k) end})
print(select(2, xpcall(function () return t.missing end, debug.traceback)))
