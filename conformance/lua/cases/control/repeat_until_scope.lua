local i = 0
repeat
  local done = i >= 3
  i = i + 1
until done
print(i)
local x = 5
repeat local x = x - 1; print(x) until x < 5
