for i = 1, 3 do
  for j = 1, 3 do
    if j == 2 then break end
    print(i, j)
  end
  if i == 2 then break end
end
local i = 0
while true do i = i + 1; repeat if i > 2 then break end until true; if i > 4 then break end end
print(i)
