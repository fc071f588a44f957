-- An error raised inside a message handler goes back to the handler, one C
-- level deeper each time; the first value it returns is xpcall's result, and
-- past the C stack's limit the result is "error in error handling".
local calls = 0
print(xpcall(error, function(e)
  calls = calls + 1
  if calls < 4 then error("retry " .. calls, 0) end
  return "settled with: " .. e
end, "original"))
print(calls)

calls = 0
local seen_overflow = false
print(xpcall(error, function(e)
  calls = calls + 1
  if e == "C stack overflow" then seen_overflow = true end
  error("never settles", 0)
end, "original"))
print(calls > 150, seen_overflow)
