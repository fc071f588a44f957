local function check(x) if type(x) ~= "number" then error("expected number", 2) end return x end
local function caller()
  check("str")
end
print(pcall(caller))
