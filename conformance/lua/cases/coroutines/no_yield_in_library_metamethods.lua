-- Metamethods that library functions run (ipairs' and the table functions'
-- element access and length) and an xpcall message handler are called from
-- C: a yield inside them is an error, while the same metamethods called by
-- Lua code may yield.
local tracked = setmetatable({}, {
  __index = function(t, k) if k <= 2 then return coroutine.yield("index " .. k) end end,
  __len = function() return coroutine.yield("length") end,
})
local function attempt(label, body)
  local co = coroutine.create(body)
  print(label, coroutine.resume(co))
end
attempt("ipairs", function() for _, v in ipairs(tracked) do return v end end)
attempt("insert", function() table.insert(tracked, "x") end)
attempt("remove", function() return table.remove(tracked) end)
attempt("unpack", function() return table.unpack(tracked, 1, 2) end)
attempt("concat", function() return table.concat(tracked, ",", 1, 2) end)
attempt("move", function() return table.move(tracked, 1, 2, 1, {}) end)
attempt("handler", function()
  return xpcall(error, function(e) return coroutine.yield("from handler") end, "oops")
end)
-- from Lua code the same metamethods yield and resume
local co = coroutine.wrap(function() return tracked[1], #tracked end)
print(co())
print(co("first"))
print(co(7))
-- gsub's replacement table is read with lua_gettable from C too
print(coroutine.resume(coroutine.create(function()
  return string.gsub("ab", "%a", setmetatable({}, {__index = function(_, k) return coroutine.yield(k) end}))
end)))
