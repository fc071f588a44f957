local t = {}
t.missing()
