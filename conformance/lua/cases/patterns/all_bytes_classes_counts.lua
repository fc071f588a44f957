local all = {}
for i = 0, 255 do all[#all + 1] = string.char(i) end
local s = table.concat(all)
for _, c in ipairs({"%a", "%c", "%d", "%g", "%l", "%p", "%s", "%u", "%w", "%x", "."}) do
  local _, n = s:gsub(c, "")
  print(c, n)
end
