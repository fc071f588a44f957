for _, c in utf8.codes("a\xFFb") do print(c) end
