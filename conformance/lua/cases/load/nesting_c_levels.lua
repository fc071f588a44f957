-- lparser.c takes a C level per statement, per expression read with
-- subexpr() and per extra assignment target; past LUAI_MAXCCALLS (200,
-- counting the levels open where load runs) it stops with a message
-- that has no position.
local function try(what, n, src)
  local ok, f, err = pcall(load, src)
  print(what, n, f and "ok" or err)
end
local function around(lo, hi, what, make)
  for n = lo, hi do try(what, n, make(n)) end
end
around(193, 196, "parens", function(n) return "return " .. ("("):rep(n) .. "1" .. (")"):rep(n) end)
around(194, 197, "tables", function(n) return "return " .. ("{"):rep(n) .. ("}"):rep(n) end)
around(195, 198, "do", function(n) return ("do "):rep(n) .. ("end "):rep(n) end)
around(193, 196, "concat", function(n) return "return " .. ("'a' .. "):rep(n) .. "'a'" end)
around(193, 196, "power", function(n) return "return " .. ("2 ^ "):rep(n) .. "1" end)
around(193, 196, "not", function(n) return "return " .. ("not "):rep(n) .. "x" end)
around(193, 196, "minus", function(n) return "return " .. ("- "):rep(n) .. "x" end)
around(193, 196, "calls", function(n) return "return " .. ("f("):rep(n) .. (")"):rep(n) end)
around(96, 98, "functions", function(n) return "return " .. ("function() return "):rep(n) .. "1" .. (" end"):rep(n) end)
around(193, 196, "index", function(n) return "return " .. ("t["):rep(n) .. "1" .. ("]"):rep(n) end)
around(193, 196, "bracket", function(n) return "return " .. ("("):rep(n) .. "t['k']" .. (")"):rep(n) end)
around(193, 196, "bare", function(n) return "return " .. ("("):rep(n) .. "f{}" .. (")"):rep(n) end)
around(192, 195, "method", function(n) return "return " .. ("("):rep(n) .. "o:m(1)" .. (")"):rep(n) end)
around(192, 195, "field", function(n) return "return " .. ("("):rep(n) .. "a.b.c" .. (")"):rep(n) end)
around(193, 196, "fields", function(n) return "return " .. ("{x = "):rep(n) .. "1" .. ("}"):rep(n) end)
around(194, 197, "if", function(n) return ("if x then "):rep(n) .. ("end "):rep(n) end)
around(194, 197, "while", function(n) return ("while x do "):rep(n) .. ("end "):rep(n) end)
around(194, 197, "repeat", function(n) return ("repeat "):rep(n) .. ("until x "):rep(n) end)
around(193, 196, "local fn", function(n) return ("local function f() "):rep(n) .. ("end "):rep(n) end)
-- a long left-nested chain stays at one level, as does a long chain of
-- fields, indexes and calls (in one register)
try("fields", 3000, "return a" .. (".b"):rep(3000))
try("indexes", 3000, "local t = {} return t" .. ("[1]"):rep(3000))
try("methods", 3000, "return o" .. (":m()"):rep(3000))
try("sum", 5000, "return 1" .. (" + x"):rep(5000))
-- a multiple assignment takes one per target after the first
around(195, 198, "targets", function(n) return ("a, "):rep(n) .. "a = 1" end)
-- the levels open where load runs count: a coroutine and a nested pcall
-- each add one
local function shown(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = type(t[i]) == "function" and "function" or tostring(t[i]) end
  return table.concat(t, " ", 1, t.n)
end
local deep = "return " .. ("("):rep(194) .. "1" .. (")"):rep(194)
print(shown(pcall(load, deep)))
print(shown(coroutine.wrap(function() return pcall(load, deep) end)()))
print(shown(pcall(pcall, load, deep)))
-- a chunk compiled once is checked again where it is loaded next
local once = "return " .. ("("):rep(193) .. "1" .. (")"):rep(193)
print(shown(pcall(load, once)))
print(shown(pcall(pcall, load, once)))
print(shown(pcall(pcall, pcall, load, once)))
