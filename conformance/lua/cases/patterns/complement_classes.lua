local s = "aB3 _\t.!"
for _, c in ipairs({"%A", "%D", "%L", "%U", "%S", "%W", "%X", "%P", "%C", "%G"}) do
  local out = {}
  for ch in s:gmatch(c) do out[#out + 1] = string.format("%02x", ch:byte()) end
  print(c, table.concat(out, " "))
end
