local x
if 1 < x then print("no") end
