local t = {a = {b = {c = {d = "deep"}}}}
print(t.a.b.c.d, t["a"]["b"].c["d"])
t.a.b.c.d = "changed"
print(t.a.b.c.d)
