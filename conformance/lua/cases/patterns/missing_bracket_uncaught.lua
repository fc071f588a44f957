string.gsub("x", "[x", "")
