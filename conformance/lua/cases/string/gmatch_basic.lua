for w in ("one two  three"):gmatch("%a+") do print(w) end
for k, v in ("a=1, b=2, c=3"):gmatch("(%w+)=(%w+)") do print(k, v) end
for pos in ("abc"):gmatch("()") do print(pos) end
