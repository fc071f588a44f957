local n = 0
while true do
  n = n + 1
  if n < 3 then goto cont end
  if n >= 5 then break end
  print("n", n)
  ::cont::
end
print(n)
