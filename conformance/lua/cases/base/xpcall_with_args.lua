print(xpcall(function(...) return select("#", ...), ... end, print, 1, nil, 3))
print(pcall(xpcall))
print(pcall(xpcall, print))
