local t = {}
for i = 1, 3 do t[i] = {get = function() return i end} end
print(t[1].get(), t[2].get(), t[3].get())
