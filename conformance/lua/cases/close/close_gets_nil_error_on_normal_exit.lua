local seen = {}
do
  local x <close> = setmetatable({}, {__close = function(o, e) seen.n = select("#", o, e); seen.e = e end})
end
print(seen.n, seen.e)
