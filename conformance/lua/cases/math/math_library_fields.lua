local names = {"abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log",
  "max", "maxinteger", "min", "mininteger", "modf", "pi", "rad", "random", "randomseed", "sin", "sqrt",
  "tan", "tointeger", "type", "ult"}
for i, k in ipairs(names) do names[i] = k .. ":" .. type(math[k]) end
print(table.concat(names, " "))
