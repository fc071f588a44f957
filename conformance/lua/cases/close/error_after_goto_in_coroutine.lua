local co = coroutine.wrap(function()
  local x <close> = setmetatable({}, {__close = function(_, e) print('closed', e) end})
  for i = 1, 3 do
    if i == 2 then goto done end
  end
  ::done::
  error('late', 0)
end)
print(pcall(co))
