local obj = {name = "o"}
function obj:m(...) return self.name, select("#", ...), ... end
print(obj:m(1, 2))
print(obj.m(obj))
