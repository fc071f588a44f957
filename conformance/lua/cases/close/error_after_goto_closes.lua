print(pcall(function()
  local x <close> = setmetatable({}, {__close = function(_, e) print('closed', e ~= nil) end})
  goto skip
  ::skip::
  error('boom')
end))
