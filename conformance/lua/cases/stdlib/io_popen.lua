-- io.popen reads a command's output or writes its input; close reports how
-- the command ended, as os.execute does.
local p = assert(io.popen("printf 'alpha\\nbeta\\n12 3.5\\n'; exit 4"))
print(io.type(p), p:read("l"), p:read("L"), p:read("n"), p:read("n"), p:read("l"), p:read("l"))
print(p:close())
print(io.type(p), pcall(p.read, p))
local lines = {}
for l in io.popen("printf 'x\\ny\\nz'"):lines() do lines[#lines + 1] = l end
print(table.concat(lines, "+"))
local name = os.tmpname()
local w = assert(io.popen("tr a-z A-Z > " .. name, "w"))
print(w:write("quiet please\n") == w)
print(w:close())
local f = io.open(name)
print(f:read("a"))
f:close()
os.remove(name)
print(io.popen("kill -TERM $$"):close())
print(pcall(io.popen, "true", "rw"))
print(pcall(io.popen, "true", "r+"))
local r = io.popen("true")
print(r:write("no"))
r:close()
