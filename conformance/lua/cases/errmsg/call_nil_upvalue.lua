local g
local function h() g() end
h()
