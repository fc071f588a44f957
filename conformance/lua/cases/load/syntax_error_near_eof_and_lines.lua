local function try(src) local f, e = load(src); print(type(f), e) end
try("local x = 1\nlocal y = 2\nlocal z = ")
try("do\n  print(1)\n")
try("while true do\n\nend end")
try("x = 'unterminated\nnext line'")
try("function f()\n  return 1\n")
