for i = 1, 3 do
  local j = i
  i = i * 10
  print(j, i)
end
