-- lparser.c's labelstat reads the labels after a label (and ';') as
-- statements of their own before it makes it: the last of a run is made
-- first, each one C level deeper.
print(load("::a::\n\n::a::\n\nx=1"))
print(load("::a:: x=1\n\n::a:: ;\n\n\nx=1"))
print(load("do ::a:: end\n::b::\n::a::\n::a::"))
print(load("do goto l1; local aa\n::l1:: ::l2::\n\n print(aa) end\n"))
print(load("local x <const> = 1\nfunction x()\nend\n\nlocal y"))
print(load("local x <const> = 1\nx,\ny = 2, 3"))
for _, n in ipairs({150, 195, 196, 197, 250}) do
  local t = {}
  for i = 1, n do t[i] = ('::l%d::'):format(i) end
  local f, err = load(table.concat(t, ' ') .. ' return 1')
  local g, err2 = load('local x = 1 ' .. table.concat(t, ';') .. ' goto l1')
  print(n, type(f), err and err:match('^[^\n]*'), type(g), err2 and err2:match('^[^\n]*'))
end
