local out = {}
for a, b in ("k1=v1;k2=v2;bad;k3=v3"):gmatch("(%w+)=(%w+)") do out[#out + 1] = a .. ":" .. b end
print(table.concat(out, " "))
for m in ("aaa"):gmatch("^a") do print("anchor", m) end
