-- (kept on one line: lua5.4.4 reports a stale line for these two errors)
local z = 0; print("before"); print(10 % z)
