-- An integer loop with a NaN limit: forlimit takes NaN for a float below
-- every integer, so a negative step runs down to math.mininteger and a
-- positive one skips.  (Found by the campaign: pylua skipped both.)
local n = 0
for i = -1, 0/0, math.mininteger do n = n + 1 print("a", i) end
for i = 1, 0/0, 1 do print("b", i) end
n = 0
for i = 3, 0/0, -1 do n = n + 1 if n > 3 then break end print("c", i) end
n = 0
for i = 3, -(0/0), -2 do n = n + 1 if n > 3 then break end print("d", i) end
for i = 3.0, 0/0, -1 do print("e", i) end
print(n)
