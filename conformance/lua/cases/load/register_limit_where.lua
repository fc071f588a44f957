-- Where Lua runs out of its 255 registers, and the token it names: the one
-- its lexer stands on when lcode.c reserves the register that does not fit.
local function try(name, src)
  local f, e = load(src, "=c")
  print(name, e)
end
local function locals(n)
  local t = {}
  for i = 1, n do t[#t + 1] = "a" .. i end
  return "local " .. table.concat(t, ",") .. "\n"
end
for n = 251, 254 do try("args" .. n, "a = f(x" .. string.rep(",x", n) .. ")") end
try("last_arg", locals(199) .. "f(x" .. string.rep(",x", 54) .. ")")
try("concat", locals(190) .. "x = a1" .. string.rep("..a1", 70))
try("concat_parens", locals(190) .. "x = a1" .. string.rep("..(a1)", 70))
try("right_nested", locals(190) .. "x = 1 + " .. string.rep("(a1 + ", 70) .. "a2" .. string.rep(")", 70))
try("return", locals(190) .. "return " .. string.rep("a1,", 70) .. "a1")
try("constructor", locals(190) .. "x = {" .. string.rep("a1,", 70) .. "a1}")
try("nested_constructors", locals(190) .. "x = {" .. string.rep("{a1,", 70) .. "a1" .. string.rep("}", 70) .. "}")
try("indexes", locals(190) .. "x = " .. string.rep("t[", 70) .. "1" .. string.rep("]", 70))
try("method", locals(190) .. "x = o:m(" .. string.rep("a1,", 70) .. "a1)")
try("targets", locals(190) .. string.rep("a1,", 70) .. "a1 = " .. string.rep("a1,", 70) .. "a1")
try("field_targets", locals(190) .. string.rep("t.x,", 70) .. "a1 = 1")
try("extra_values", locals(180) .. "local b1, b2 = " .. string.rep("a1,", 80) .. "a1")
try("string_calls", locals(190) .. "x = f(" .. string.rep("g'x', ", 70) .. "1)")
try("nested_calls", locals(190) .. "x = " .. string.rep("f(a1, ", 70) .. "1" .. string.rep(")", 70))
try("generic_for", locals(190) .. "for k in " .. string.rep("a1,", 70) .. "a1 do end")
try("lines", locals(190) .. "x = f(a1,\n" .. string.rep("a1,\n", 70) .. "a1)")
-- a <const> local is no constant yet as a value to store: it takes a register
try("const_value", locals(190) .. "local c <const> = 3\nx = f(" .. string.rep("a1, ", 62) .. "{k = c})")
try("literal_value", locals(190) .. "local c <const> = 3\nx = f(" .. string.rep("a1, ", 62) .. "{k = 3})")
