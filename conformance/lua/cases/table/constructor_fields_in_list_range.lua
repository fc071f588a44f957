-- A constructor's list items overwrite keyed fields at the same indices
-- (nil items too), and a full list part continues into keyed fields that
-- follow it when '#' looks for a border.
local roster = {"ann", nil, nil, "dee", [5] = "eve", [7] = "gus", [9] = "ivy"}
print(#roster, roster[4], roster[5], roster[7])

local shadowed = {[1] = "old", nil, nil, "c", [4] = "d"}
print(#shadowed, shadowed[1], shadowed[3], shadowed[4])

local overlap = {[2] = "field", "x", nil}
print(#overlap, overlap[1], overlap[2])

local tail = {[1] = 10, [2] = 20, [3] = 30, "first"}
print(#tail, tail[1], tail[2], tail[3])

local chain = {"a", "b", [3] = "c", [4] = "d"}
print(#chain, chain[4])

local function three() return "p", nil, "r" end
local spread = {[4] = "s", three()}
print(#spread, spread[2], spread[4])

local mixed = {[4] = 4, [5] = 5, nil, 2, three()}
print(#mixed, mixed[1], mixed[3])

-- the items become an ordinary sequence that grows and shrinks as usual
roster[6] = "fay"
print(#roster)
roster[#roster] = nil
print(#roster)
