-- xpcall's message handler is named, in its own traceback, after what
-- raised the error: an operation's metamethod (lua5.4's funcnamefromcode
-- names the instruction that raised), a call's callee, or nothing.
local function h(m) return (debug.traceback(m, 1):gsub("\n.*", "")) .. " | " .. debug.traceback("", 1):match("\n\t[^\n]*") end
local function show(f) print((select(2, xpcall(f, h)))) end
local t, n, s = {}, nil, "x"
show(function() return t.x * 2 end)
show(function() return -n end)
show(function() return ~t end)
show(function() return n.x end)
show(function() n.x = 1 end)
show(function() return #n end)
show(function() return t < t end)
show(function() return t <= t end)
show(function() return t .. "" end)
show(function() return 1 // 0 end)
show(function() return s + 1 end)
show(function() return n() end)
show(function() error("e") end)
show(function() return ("x"):rep(-1, {}) end)
show(function() local mt = {__index = function(t, k) return k * nil end} return setmetatable({}, mt).y end)
-- in a coroutine (the generator forms)
print(coroutine.wrap(function()
  show(function() return t.x * 2 end)
  show(function() return n.x end)
  show(function() return t < t end)
  return "done"
end)())
-- a handler that fails itself is called again for its own error
print(select(2, xpcall(function() return n.x end, function(m)
  if not m:find("again") then local z = nil; return z.again end
  return debug.traceback(m, 1):match("\n\t[^\n]*")
end)))
show(function() return 1.5 & 1 end)
show(function() return "a" & 1 end)
show(function() return 2 ^ {} end)
show(function() return 1 < n end)
show(function() return n .. 1 end)
show(function() return 5 % 0 end)
show(function() return t.a.b.c end)
show(function() for i = 1, "x" do end end)
show(function() return math.floor(n) end)
