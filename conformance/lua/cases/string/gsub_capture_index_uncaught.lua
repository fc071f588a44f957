local s = ("abc"):gsub("b", "%1 and %2")
