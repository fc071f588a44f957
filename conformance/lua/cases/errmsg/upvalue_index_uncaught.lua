local config
local function get() return config.value end
print(pcall(get))
get()
