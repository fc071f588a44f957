-- A traceback names a function by the call that made it; a call through an
-- expression with no name (another call's result) gives it no name, even
-- when a named call follows it closely.
local function pick(f) return f end
local function after() end
local function run()
  local w = coroutine.wrap(function() error("inside", 0) end)
  pick(w)()
  after()
end
local ok, tb = xpcall(run, debug.traceback)
print(ok, (tb:gsub("\n[^\n]*%[C%]: in %?$", "")))
local t = { w = coroutine.wrap(function() error("again", 0) end) }
print(select(2, xpcall(function() t.w() after() end, debug.traceback)))
