local names = {"byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match",
  "pack", "packsize", "rep", "reverse", "sub", "unpack", "upper"}
for _, k in ipairs(names) do names[_] = k .. ":" .. type(string[k]) end
print(table.concat(names, " "))
