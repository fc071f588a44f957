local t = {}
print(t.y.z)
