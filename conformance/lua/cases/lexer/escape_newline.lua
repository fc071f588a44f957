local s = "line1\
line2"
print(s, #s)
