local ok, err = pcall(function()
  local a <close> = setmetatable({}, {__close = function() print("a closes") end})
  local b <close> = setmetatable({}, {__close = function() error("close failed", 0) end})
  return "unreached value"
end)
print(ok, err)
