for p, c in utf8.codes("a\u{E9}\u{20AC}") do print(p, c) end
for p, c in utf8.codes("") do print("never") end
