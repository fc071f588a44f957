-- Recursive calls: naive doubly recursive Fibonacci (first-issue benchmark).
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

print(string.format("fib(27) = %d", fib(27)))
