-- Generic for loops over gmatch: one to three variables, zero to three
-- captures, position captures, empty matches, break, and an error.
local out = {}
local text = "alpha=1 beta=22 gamma=333"
for w in text:gmatch("%a+") do out[#out + 1] = w end
for k, v in text:gmatch("(%a+)=(%d+)") do out[#out + 1] = k .. ":" .. v end
for k, v, extra in text:gmatch("(%a+)=(%d+)") do out[#out + 1] = tostring(extra) end
for k in text:gmatch("(%a+)=(%d+)") do out[#out + 1] = k end
for w, nothing in text:gmatch("%a+") do out[#out + 1] = tostring(nothing) end
for a, b, c in text:gmatch("(%a)(%a)(%a)") do out[#out + 1] = a .. b .. c end
for p in text:gmatch("()=") do out[#out + 1] = p end
for a, b in text:gmatch("(%a+)()") do out[#out + 1] = a .. b end
for w in ("a,b,,c"):gmatch("([^,]*)") do out[#out + 1] = "[" .. w .. "]" end
local n = 0
for w in text:gmatch("%a+") do n = n + 1 if n == 2 then break end end
out[#out + 1] = n
print(table.concat(out, " "))
print(pcall(function() for a in ("abc"):gmatch("(a") do end end))
