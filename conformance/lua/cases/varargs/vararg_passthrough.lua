local function inner(...) return select("#", ...), ... end
local function outer(...) return inner(...) end
print(outer(1, nil, 3))
print(outer())
print((outer(9, 9)))
