-- A numeric for checks its limit, then its step, then its initial value
-- (when the initial value and the step are not both integers).
print(pcall(function() for i = {}, nil do end end))
print(pcall(function() for i = {}, 1, {} do end end))
print(pcall(function() for i = {}, 1 do end end))
print(pcall(function() for i = 1.5, {}, nil do end end))
print(pcall(function() for i = 1, 2, {} do end end))
print(pcall(function() for i = nil, nil, nil do end end))
print(pcall(function() for i = 1, 2, 0.0 do end end))
print(pcall(function() for i = {}, 2, 0 do end end))
print(pcall(function() for i = "1", 2 do print(i, math.type(i)) end end))
print(pcall(function() for i = 1, "2" do print(i, math.type(i)) end end))
