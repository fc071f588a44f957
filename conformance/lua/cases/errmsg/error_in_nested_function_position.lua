local function level3() error("deep error") end
local function level2() level3() end
local function level1() level2() end
print(pcall(level1))
