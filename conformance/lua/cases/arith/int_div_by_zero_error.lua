print(pcall(function() local a, b = 1, 0; return a // b end))
print(pcall(function() local a, b = 1, 0; return a % b end))
-- (kept on one line: lua5.4.4 reports a stale line for these two errors)
local z = 0; print("before"); print(1 // z)
