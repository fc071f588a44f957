local t = {1, 2, nil, 4}
for i, v in ipairs(t) do print(i, v) end
for i, v in ipairs({}) do print("never") end
print(pcall(ipairs))
