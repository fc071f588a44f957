local x <const> = 1
do
  local x = 2
  x = 3
  print(x)
end
print(x)
