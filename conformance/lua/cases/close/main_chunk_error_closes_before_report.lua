-- An error leaving the main chunk closes its variables before the error is
-- reported; an error in a __close handler becomes the reported one.
local log <close> = setmetatable({}, {__close = function (_, e)
  print("log closed:", (string.match(tostring(e), "^[^\n]*")))
end})
local db <close> = setmetatable({}, {__close = function (_, e)
  print("db closed:", (string.match(tostring(e), "^[^\n]*")))
  error("db close failed", 0)
end})
print("working")
error("main failed", 0)
