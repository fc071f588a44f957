local function parse_kv(line)
  local k, v = line:match("^(%w+)%s*=%s*(.-)%s*$")
  if not k then error({line = line, msg = "malformed"}) end
  local n = tonumber(v)
  return k, n or v
end
local config, errors = {}, {}
for _, line in ipairs({"a = 1", "name = lua", "oops", "pi = 3.14", "= x"}) do
  local ok, k, v = pcall(parse_kv, line)
  if ok then config[k] = v else errors[#errors + 1] = k.msg .. ": " .. k.line end
end
print(config.a, math.type(config.a), config.name, config.pi)
print(table.concat(errors, "; "))
