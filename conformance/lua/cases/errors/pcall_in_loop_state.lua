local results = {}
for i = 1, 5 do
  local ok, v = pcall(function() if i % 2 == 0 then error("even " .. i, 0) end return i end)
  results[#results + 1] = tostring(ok) .. ":" .. tostring(v)
end
print(table.concat(results, " "))
