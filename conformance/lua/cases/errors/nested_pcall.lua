local function f()
  local ok, err = pcall(error, "inner")
  print("inner pcall:", ok, err)
  error("outer")
end
print(pcall(f))
print(pcall(pcall, error, "x"))
print(pcall(pcall))
