-- A binary chunk is refused for the first part of Lua's header that
-- differs, checked in lundump.c's order, or for being cut short; a chunk
-- named by its own text is a "binary string".
local header = "\27Lua\84\0\25\147\r\n\26\n\4\8\8" .. string.pack("<j", 0x5678) .. string.pack("<n", 370.5)
for _, t in ipairs({"\27junk", "\27", "\27Lu", "\27Lua", "\27LuaQ", "\27Lua\84\1", "\27Lua\84\0\25\147\r\n\26X",
                    header:sub(1, 12) .. "\8", header:sub(1, 13) .. "\4", header:sub(1, 14) .. "\4",
                    header:sub(1, 15) .. ("\0"):rep(8), header:sub(1, 23) .. ("\0"):rep(8), header:sub(1, 20)}) do
  print(load(t))
  print(load(t, "=named"))
  print(load(t, "@file.lua", "b"))
end
print(load("\27Lua", "text", "t"))
