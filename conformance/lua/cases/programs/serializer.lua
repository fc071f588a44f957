local function ser(v, indent)
  indent = indent or ""
  local t = type(v)
  if t == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      if type(a) == type(b) then return a < b end
      return type(a) == "number"
    end)
    local parts = {}
    for _, k in ipairs(keys) do
      local ks = type(k) == "string" and k or "[" .. tostring(k) .. "]"
      parts[#parts + 1] = indent .. "  " .. ks .. " = " .. ser(v[k], indent .. "  ")
    end
    return "{\n" .. table.concat(parts, ",\n") .. "\n" .. indent .. "}"
  elseif t == "string" then
    return string.format("%q", v)
  else
    return tostring(v)
  end
end
print(ser({1, 2, name = "x", nested = {a = true, b = {3.5}}, [10] = "ten"}))
