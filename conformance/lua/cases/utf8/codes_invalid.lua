print(pcall(function() for p, c in utf8.codes("ab\xFF") do end end))
print(pcall(function() for p, c in utf8.codes("\xC3") do end end))
