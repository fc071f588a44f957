local t = {"a", "b", "c", "d"}
for k, v in pairs(t) do print(k, v) end
