local f = function() return "outer" end
do
  local f = function(n) if n == 0 then return "done" end return f(n - 1) end
  print(f(3))
end
do
  local function g(n) if n == 0 then return "rec" end return g(n - 1) end
  print(g(3))
end
