local obj = {n = 0}
function obj:inc(d) self.n = self.n + (d or 1); return self end
obj:inc():inc(5):inc()
print(obj.n)
print(obj.inc(obj, 10).n)
