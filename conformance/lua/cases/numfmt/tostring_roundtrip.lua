for _, x in ipairs({0.1, 1/3, 1e15, 123.456, -7.25, 2^-10}) do
  print(x, tonumber(tostring(x)) == x, string.format("%.17g", x))
end
