local out = {}
for m in ("abc"):gmatch("x*") do out[#out + 1] = "[" .. m .. "]" end
print(table.concat(out))
out = {}
for a, b in ("hello"):gmatch("()l()") do out[#out + 1] = a .. "-" .. b end
print(table.concat(out, " "))
