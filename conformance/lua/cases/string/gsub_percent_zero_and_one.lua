print(("abc"):gsub("b", "[%0]"), ("abc"):gsub("b", "[%1]"))
print(("abc"):gsub("(b)", "[%0|%1]"))
print(("hello world"):gsub("()o", "%1"))
