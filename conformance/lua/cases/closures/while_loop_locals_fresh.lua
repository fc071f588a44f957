local fs, i = {}, 0
while i < 3 do
  i = i + 1
  local k = i
  fs[i] = function() return k end
end
print(fs[1](), fs[2](), fs[3]())
