local function closer(name) return setmetatable({}, {__close = function(_, err) print("close", name, err) end}) end
do
  local a <close> = closer("a")
  print("body")
end
print("after")
