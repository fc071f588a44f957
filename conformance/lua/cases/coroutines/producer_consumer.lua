local producer = coroutine.create(function()
  for _, item in ipairs({"a", "b", "c"}) do coroutine.yield(item) end
  return nil
end)
local got = {}
while true do
  local ok, item = coroutine.resume(producer)
  if not item then break end
  got[#got + 1] = item
end
print(table.concat(got, ","), coroutine.status(producer))
