-- A binary chunk starts with Lua 5.4's header; a corrupted or truncated one does not load.
local header = string.pack("c4BBc6BBB", "\27Lua", 0x54, 0, "\x19\x93\r\n\x1a\n", 4, string.packsize("j"), string.packsize("n"))
local c = string.dump(function () local a = 1; local b = 3; return a + b * 3 end)
assert(assert(load(c))() == 10)
assert(string.sub(c, 1, #header) == header)
local ci, cn = string.unpack("jn", c, #header + 1)
assert(ci == 0x5678 and cn == 370.5)
for i = 1, #header do
  local s = string.sub(c, 1, i - 1) .. string.char(string.byte(string.sub(c, i, i)) + 1) .. string.sub(c, i + 1, -1)
  assert(#s == #c)
  assert(not load(s))
end
for i = 1, #c - 1 do
  local st, msg = load(string.sub(c, 1, i))
  assert(not st and string.find(msg, "truncated"))
end
print(load(string.sub(c, 1, 10)))
print("ok")
