local print = print
do
  local _ENV = {z = 7}
  print(z)
  w = 3
  print(w, _ENV.w)
end
print(w)
