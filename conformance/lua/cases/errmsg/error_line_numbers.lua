local function f()
  local a = 1

  local b = nil
  return a + b
end
print(pcall(f))
