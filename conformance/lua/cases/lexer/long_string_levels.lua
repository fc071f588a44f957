print([=[a]]b]=], [====[]===]]====])
local s = [[
line1
line2
]]
print(s, #s)
