local s = "hello"
print(s:byte(-3, -1))
print(s:byte(-100, 2))
print(s:byte(4, 100))
print(select("#", s:byte(1, -1)))
