-- A library function is a function like any other to tostring and print:
-- "function: " and its address, as lua5.4 prints it.
for _, f in ipairs({print, string.len, ipairs({}), coroutine.wrap(function() end), function() end}) do
  print((tostring(f):gsub("0x%x+", "ADDRESS")))
end
print(string.format("%s", math.floor):match("^function: 0x%x+$") ~= nil)
