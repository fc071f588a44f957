local function closer(name) return setmetatable({}, {__close = function(_, err) print("close", name, type(err), err and err.code) end}) end
local ok, err = pcall(function()
  local a <close> = closer("a")
  error({code = 7})
end)
print(ok, type(err), err.code)
