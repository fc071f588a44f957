-- select takes any string starting with '#' as '#'; os.date makes a table
-- only for the format '*t' exactly (after an optional '!').
print(select('#x', 1, 2), select('#', nil, nil), select('#'))
print(pcall(select, 'x', 1))
print(pcall(select, '2', 'a', 'b'))
print(os.date("!*tjunk", 0))
print(os.date("!*t ", 0))
print(os.date("!*t", 0).year, type(os.date("*t", 0)))
print(os.date("!%Y*t", 0))
