for i = 1, 3 do
  for j = 1, 3 do
    if i * j == 4 then goto out end
    print(i, j)
  end
end
::out::
print("out")
