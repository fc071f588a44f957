local function rec(n) return 1 + rec(n + 1) end
local ok, e = pcall(rec, 1)
print(ok, (e:gsub("^.-:%d+: ", "")))
