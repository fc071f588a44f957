-- %q of strings longer than a piece it quotes at a time: a control
-- character at a piece's end followed by a digit keeps its three digits.
local parts = {}
for i = 0, 255 do parts[#parts + 1] = string.char(i) .. tostring(i % 10) end
local base = table.concat(parts)
local s = string.rep(base, 200) .. "\0" .. "1" .. string.rep("\n\"\\", 30000) .. "\1"
local q = string.format("%q", s)
print(#s, #q, load("return " .. q)() == s)
-- a control character at a piece's end followed by a digit
for _, n in ipairs({65535, 65536, 65537, 131071, 131072}) do
  local t = string.rep("a", n - 1) .. "\5" .. "7" .. string.rep("\0", 3) .. "9"
  local u = string.format("%q", t)
  print(n, #u, load("return " .. u)() == t, u:sub(n - 2, n + 8))
end
