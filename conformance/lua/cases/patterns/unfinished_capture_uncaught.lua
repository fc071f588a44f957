for w in ("abc"):gmatch("(b") do print(w) end
