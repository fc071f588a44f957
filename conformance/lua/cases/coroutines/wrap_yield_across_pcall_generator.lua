local gen = coroutine.wrap(function()
  for i = 1, 3 do
    local ok, err = pcall(function()
      coroutine.yield(i)
      if i == 2 then error("two", 0) end
    end)
    if not ok then coroutine.yield("caught " .. err) end
  end
end)
for _ = 1, 4 do print(gen()) end
