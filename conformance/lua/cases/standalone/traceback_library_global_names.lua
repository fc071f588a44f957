-- Tracebacks name a library function by where package.loaded holds it
-- ('table.sort'), whatever the calling code called it: a field, an
-- upvalue, a local; library functions made of a partial (table.*) too.
local function tb(f) return select(2, xpcall(f, debug.traceback)) end
local function show(s) print((s:gsub("\n[^\n]*%(command line%)[^\n]*", ""):gsub("\n[^\n]*%[C%]: in %?", ""))) end
local sort, gsub, concat = table.sort, string.gsub, table.concat
show(tb(function() table.sort({3, 2, 1}, function(a, b) error("cmp") end) end))
show(tb(function() sort({3, 2, 1}, function(a, b) error("cmp") end) end))
show(tb(function() gsub("ab", "%a", function(c) error("repl") end) end))
show(tb(function() concat({1, {}, 3}) end))
show(tb(function() table.insert({}, 1, 2, 3) end))
show(tb(function() local t = setmetatable({}, {__index = function() error("idx") end}) table.unpack(t, 1, 2) end))
show(tb(function() string.rep() end))
