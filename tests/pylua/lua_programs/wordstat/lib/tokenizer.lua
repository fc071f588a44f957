-- A coroutine tokenizer: yields words, numbers and quoted phrases with
-- their line numbers, reading a file line by line through io.lines.
local M = {}

local function scan(line, lineno)
  local pos = 1
  while pos <= #line do
    local s, e = line:find("^%s+", pos)
    if s then pos = e + 1 goto continue end
    s, e = line:find('^%b""', pos)
    if s then
      coroutine.yield("phrase", line:sub(s + 1, e - 1), lineno)
      pos = e + 1 goto continue
    end
    s, e = line:find("^%-?%d+%.?%d*", pos)
    if s then
      coroutine.yield("number", tonumber(line:sub(s, e)), lineno)
      pos = e + 1 goto continue
    end
    s, e = line:find("^[%a_][%w_'-]*", pos)
    if s then
      coroutine.yield("word", line:sub(s, e):lower(), lineno)
      pos = e + 1 goto continue
    end
    coroutine.yield("punct", line:sub(pos, pos), lineno)
    pos = pos + 1
    ::continue::
  end
end

function M.tokens(filename)
  return coroutine.wrap(function()
    local lineno = 0
    for line in io.lines(filename) do
      lineno = lineno + 1
      scan(line, lineno)
    end
  end)
end

return M
