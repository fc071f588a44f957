local x = 1
do local x = 2; print(x) end
print(x)
do x = 3 end
print(x)
