-- file:read("n") of numerals in every form, long runs of space, a numeral
-- past the buffer a stream holds, and a read going on after a failed one.
local name = os.tmpname()
local f = io.open(name, "w")
f:write("  12 -3.5 0x1F 1e3 .5 0x.p1 +7 9")
for i = 1, 3000 do f:write(" ", i * 7, "\n") end
f:write(string.rep(" ", 9000), "42 ", string.rep("9", 250), " 5 abc")
f:close()
f = io.open(name)
print(f:read("n", "n", "n", "n", "n"))
print(f:read("n"), f:read(3), f:read("n"), f:read("n"))
local s = 0
for i = 1, 3000 do s = s + f:read("n") end
print(s, f:read("n"), f:read("n"), f:read("n"), f:read("n"), f:read("a"))
f:close()
os.remove(name)
