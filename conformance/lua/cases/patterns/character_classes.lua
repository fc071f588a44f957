local s = "aB3 _\t.!\0z"
for _, c in ipairs({"%a", "%d", "%l", "%u", "%s", "%w", "%x", "%p", "%c", "%g"}) do
  local out = {}
  for ch in s:gmatch(c) do out[#out + 1] = string.format("%02x", ch:byte()) end
  print(c, table.concat(out, " "))
end
