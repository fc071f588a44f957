local function range(n)
  return function(state, ctl)
    if ctl < state then return ctl + 1, ctl * ctl end
  end, n, 0
end
for i, sq in range(4) do print(i, sq) end
