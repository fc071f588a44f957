-- Line events inside table constructors written over several lines: each
-- store on the line lua5.4 gives it (the value's last token; the last list
-- item and the final batch at the '}'), and a one-line constructor one line.
local function f(...) return ... end
local lines = {}
local function trace(name, fn)
  lines = {}
  debug.sethook(function(_, line) lines[#lines + 1] = line end, "l")
  fn()
  debug.sethook()
  print(name, table.concat(lines, " "))
end
trace("positional", function()
  local t = {
    1,
    2,
    f(3),
    "x"
  }
end)
trace("multret", function()
  local t = {
    1,
    f(2,
      3)
  }
end)
trace("keyed", function()
  local t = {
    [1] = 1,
    ["k"] =
      2,
    x = f(1,
      2),
    y = function()
    end,
    z = {
      a = 1
    },
  }
end)
trace("fifty", function()
  local t = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
    21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
    41, 42, 43, 44, 45, 46, 47, 48, 49, 50
  }
  local u = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
    21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
    41, 42, 43, 44, 45, 46, 47, 48, 49, 50,
    51, k = 1,
    52
  }
  local v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
    21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
    41, 42, 43, 44, 45, 46, 47, 48, 49, 50
    , k = 2}
end)
trace("oneline", function()
  local t = {a = 1, b = {2, 3}, 4, f(5)}
  local u = {a = f(1), b = {2,
    3}}
end)
trace("data", function()
  local rows = {
    {id = 1, name = "a"},
    {id = 2, name = "b", tags = {"x"}},
    {id = 3,
     name = "c"},
  }
end)
