local t = {1, 2, 3}
print(#t)
t[#t + 1] = 4
print(#t)
t[#t] = nil
print(#t)
print(#{n = 1}, #{nil}, #{1, 2, 3, nil})
