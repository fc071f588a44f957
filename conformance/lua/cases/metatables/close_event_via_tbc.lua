do
  local x <close> = setmetatable({}, {__close = function(o, e) print("closing", type(o), e) end})
  print("in block")
end
print("after")
