-- a goto sees only the labels of its own and enclosing blocks
local x
do local y = 12; goto l1; ::l2:: x = x + 1; goto l3; ::l1:: x = y; goto l2 end
::l3:: print(x)
do local a = "s"; goto l1; ::l1:: end
for i = 1, 3 do
  if i == 2 then goto continue end
  do goto continue; ::continue:: end
  print("i", i)
  ::continue::
end
local n = 0
while n < 3 do
  do n = n + 1; goto skip; print("never"); ::skip:: end
  if n == 2 then goto skip end
  print("n", n)
  ::skip::
end
