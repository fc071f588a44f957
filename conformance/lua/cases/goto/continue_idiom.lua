for i = 1, 5 do
  if i % 2 == 0 then goto continue end
  print(i)
  ::continue::
end
