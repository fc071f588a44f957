-- A <const> local is a compile-time constant (no local, no register) only
-- when it is the last of its statement's names and its value is a constant
-- expression: a literal, a folded number, another such constant, or 'not'
-- of one; debug.getlocal lists the others.
local a <const> = -2
local b <const> = 2 * 3
local s <const> = "x" .. "y"
local m <const> = math.pi
local t <const> = not nil
local x, y <const> = 1, 2
local z <const>, w = 1, 2
local p <const> = (5)
local q <const> = -(2)
local k <const> = a
local k2 <const> = not k
local f <const> = 2^53
local names, i = {}, 1
while debug.getlocal(1, i) do
  names[#names + 1] = debug.getlocal(1, i)
  i = i + 1
end
print(table.concat(names, " "))
print(a, b, s, m, t, x, y, z, w, p, q, k, k2, f)
