local state, out = "a", {}
::dispatch::
if state == "a" then out[#out + 1] = "A"; state = "b"; goto dispatch
elseif state == "b" then out[#out + 1] = "B"; state = "c"; goto dispatch
end
print(table.concat(out))
