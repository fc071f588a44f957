local out = {}
for w in ("aaa bbb"):gmatch("^a") do out[#out + 1] = w end
print(#out, out[1])
out = {}
for w in ("one two three"):gmatch("%a+", 5) do out[#out + 1] = w end
print(table.concat(out, ","))
out = {}
for w in ("one two three"):gmatch("%a+", -5) do out[#out + 1] = w end
print(table.concat(out, ","))
