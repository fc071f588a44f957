local i = 0
while i < 5 do i = i + 1 end
print(i)
while false do print("never") end
local n = 10
while true do n = n - 3; if n < 0 then break end end
print(n)
