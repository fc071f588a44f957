for _, p in ipairs({{17, 5}, {-17, 5}, {17, -5}, {-17, -5}, {0, -3}}) do
  local a, b = p[1], p[2]
  print(a, b, a // b, a % b, (a // b) * b + a % b == a)
end
