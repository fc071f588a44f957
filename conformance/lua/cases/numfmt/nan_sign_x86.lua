-- On x86_64 Linux the NaN produced by 0/0 has its sign bit set:
-- Lua prints it with printf("%.14g"), giving "-nan"; negating gives "nan".
print(0/0, -(0/0))
print(tostring(0/0), tostring(-(0/0)))
