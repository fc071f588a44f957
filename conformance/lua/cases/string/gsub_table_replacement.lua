local t = {name = "Lua", ver = "5.4", num = 1}
print(("$name $ver $missing $num"):gsub("%$(%w+)", t))
print(("a b c"):gsub("%w", {a = false, b = "B"}))
