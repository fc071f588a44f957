-- Line events of numeric for loops long enough that pylua runs their
-- iterations in chunks: one event per iteration, chunk boundaries included.
local lines = {}
local function hook(_, l) lines[#lines + 1] = l end
local function run(f)
  lines = {}
  debug.sethook(hook, "l") f() debug.sethook()
  local count = {}
  for _, l in ipairs(lines) do count[l] = (count[l] or 0) + 1 end
  local keys = {}
  for l in pairs(count) do keys[#keys + 1] = l end
  table.sort(keys)
  local out = {}
  for _, l in ipairs(keys) do out[#out + 1] = l .. "x" .. count[l] end
  print(#lines, table.concat(out, " "))
end
local s = 0
run(function() for i = 1, 2000 do s = s + i end end)
run(function() for i = 1, 2000 do s = s + i end s = 0 end)
run(function()
  for i = 1, 1500 do
    s = s + i
  end
end)
run(function()
  for i = 1, 1300, 2 do
    if i % 2 == 1 then s = s + 1 end
  end
  s = 0
end)
run(function() for i = 2000, 1, -1 do s = s - 1 end end)
run(function() for i = 1, 625 do s = s + 1 end for i = 1, 626 do s = s + 1 end end)
