-- A float loop whose initial value or limit is NaN runs its body once:
-- forprep skips only when the limit is passed, forloop goes on only within it.
for i = 0/0, 1.5, 0.5 do print("nan", i) break end
for i = 1, 0/0 do print("int nan limit", i) break end
for i = 1.0, 0/0 do print("flt nan limit", i) break end
for i = 0/0, 1, 1 do print("nan int step", i) break end
local seen = {}
for i = 1.0, 2, 0.25 do seen[#seen + 1] = i end
print(table.concat(seen, " "))
seen = {}
for i = 2, 1.0, -0.5 do seen[#seen + 1] = i end
print(table.concat(seen, " "))
for i = 1.5, 1, 0.5 do print("never") end
