local function f(...) return select("#", ...) end
print(f(), f(nil), f(nil, nil), f(1, nil, 3, nil))
