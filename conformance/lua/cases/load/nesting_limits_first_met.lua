-- which limit a deep nest meets first: a nest of numeric fors runs out of
-- locals (four each) long before C levels; closed or not, a nest far past
-- the levels stops with the overflow
local function shown(ok, f, err)
  return tostring(ok) .. " " .. (f and "function" or err)
end
for _, n in ipairs{49, 50, 51, 193, 196} do
  print(n, shown(pcall(load, ("for i = 1, 2 do "):rep(n) .. ("end "):rep(n))))
end
for _, n in ipairs{190, 197, 198, 400} do
  print(n, shown(pcall(load, ("while x do "):rep(n) .. ("end "):rep(n))))
  print(n, shown(pcall(load, "return " .. ("{"):rep(n) .. ("}"):rep(n))))
  print(n, shown(pcall(load, ("local function f() "):rep(n) .. ("end "):rep(n))))
end
print(shown(pcall(load, "return " .. ("("):rep(100000))))
print(shown(pcall(load, "x = " .. ("("):rep(100000) .. "1" .. (")"):rep(100000))))
