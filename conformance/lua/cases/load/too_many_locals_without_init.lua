-- Past Lua's 200 locals, the error names the token the parser has reached
-- as it declares the local: with no '=', the token after the statement,
-- on its own line, whatever follows (another statement, a comment, the end).
local function source(last, after)
  local lines = {}
  for i = 1, 199 do lines[i] = "local a" .. i end
  lines[#lines + 1] = last
  lines[#lines + 1] = after
  return table.concat(lines, "\n")
end
print(load(source("local b1, b2", "\n-- a comment\nx = 1"), "=lim"))
print(load(source("local b1, b2", "print(1)"), "=lim"))
print(load(source("local b1, b2", ""), "=lim"))
print(load(source("local b1,\n  b2", "print(1)"), "=lim"))
print(load(source("local b1, b2 <const>", "print(1)"), "=lim"))
print(load(source("local b1, b2 = 1", "print(1)"), "=lim"))
print(load(source("local b1, b2;", "print(1)"), "=lim"))
