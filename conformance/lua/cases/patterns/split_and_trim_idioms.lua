local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end
print("[" .. trim("  hi there \t\n") .. "]", "[" .. trim("") .. "]", "[" .. trim("   ") .. "]")
local function split(s, sep)
  local out = {}
  for piece in (s .. sep):gmatch("(.-)" .. sep:gsub("%p", "%%%0")) do out[#out + 1] = piece end
  return out
end
print(table.concat(split("a,b,,c", ","), "|"), #split("", ","), table.concat(split("1.2.3", "."), "|"))
