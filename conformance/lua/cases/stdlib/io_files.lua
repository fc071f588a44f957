-- io: files, every read format, lines, seek, default files, failures
local name = os.tmpname()
local f = assert(io.open(name, "w"))
print(io.type(f), io.type(io.stdout), io.type(42))
print(f:write("first line\n", 42, " ", 1.5, "\n", "0x1F  -3.5e2 nan\n", "last") == f)
print(f:seek("cur"), f:seek("set", 6), f:seek("end"))
f:close()
print(io.type(f), tostring(f), pcall(f.write, f, "x"))
print(pcall(f.read, f))

f = assert(io.open(name))
print(f:read("l"))
print(f:read("n", "n"))
print(f:read("L"))
print(f:read("n", "n", "l"))
print(f:read(2), f:read(0), f:read("a"))
print(f:read("a"), f:read("l"), f:read(0), f:read(1))
f:close()

for line in io.lines(name) do io.write("[", line, "]") end
print()
for a, b in io.lines(name, 1, "l") do io.write("<", a, "|", b, ">") end
print()
local n = 0
for l in io.lines(name, "L") do n = n + #l end
print(n)

print(io.open("/no/such/dir/file"))
print(pcall(io.open, name, "rw"))
print(pcall(io.lines, "/no/such/file"))
print(pcall(function() return io.stdout:read("x") end))

-- default output and input
local out = io.output()
io.output(name)
io.write("via default output\n")
io.close()
io.output(out)
io.input(name)
print(io.read("L"))
print(io.read())
io.input():close()
print(pcall(io.read))
io.input(io.stdin)

local t = io.tmpfile()
t:write("temporary")
t:seek("set")
print(t:read("a"), t:setvbuf("no"), t:setvbuf("full", 1024))
print(pcall(function() return t:seek("bad") end))
t:close()
print(io.stdout:close())
print(os.remove(name), select("#", os.remove(name)))
