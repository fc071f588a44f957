local fs = {}
for i = 1, 3 do
  local j = i * 2
  fs[#fs + 1] = function() j = j + 1; return i, j end
end
print(fs[1]()); print(fs[1]()); print(fs[2]()); print(fs[3]())
