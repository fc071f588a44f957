local values = {"simple", "quote\"s", "new\nline", "\0zero", "\255\1", 42, -3.25, math.mininteger}
for _, v in ipairs(values) do
  local back = load("return " .. string.format("%q", v))()
  print(back == v, math.type(back) == math.type(v))
end
