local t = {}
t.a.b = 1
