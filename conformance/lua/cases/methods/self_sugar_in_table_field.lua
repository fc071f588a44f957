local t = {v = 5}
t.f = function(self, a) return self.v + a end
print(t:f(1), t.f(t, 2), t.f({v = 0}, 3))
