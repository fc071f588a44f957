local mt = {__close = function() print("closed") end}
print(pcall(function()
  local x <close> = setmetatable({}, mt)
  mt.__close = nil
end))
