-- An error calling a generic for's iterator is on the line of its first expression.
local function line_of(s)
  local ok, msg = pcall(load(s))
  print(msg)
end
line_of("\n local a \n for k,v in 3 \n do \n print(k) \n end")
line_of("\n\n for k,v in \n 3 \n do \n print(k) \n end")
line_of("local t = {}\nfor k in\n t\n .x, 1 do end")
line_of("for k in next, {} do end\nfor k, v in\n\n  1, 2 do\n  print(k)\nend")
