-- Tokens of the calc language, produced by a coroutine so the parser
-- pulls them one at a time.
local Lexer = {}

local KEYWORDS = {["let"] = true, ["fn"] = true, ["if"] = true, ["then"] = true,
                  ["else"] = true, ["end"] = true, ["print"] = true, ["while"] = true,
                  ["do"] = true, ["return"] = true, ["and"] = true, ["or"] = true, ["not"] = true}

local SYMBOLS = {"==", "~=", "<=", ">=", "//", "..", "+", "-", "*", "/", "%", "^",
                 "<", ">", "=", "(", ")", ",", ";", "[", "]", "{", "}", "#"}

local LexError = {}
LexError.__index = LexError
LexError.__tostring = function(e)
  return string.format("%s:%d:%d: %s", e.source, e.line, e.column, e.message)
end

local function lex_error(source, line, column, message)
  error(setmetatable({source = source, line = line, column = column, message = message}, LexError), 0)
end

local function unescape(body, source, line, column)
  return (body:gsub("\\(.)", function(c)
    local map = {n = "\n", t = "\t", ["\\"] = "\\", ['"'] = '"'}
    if not map[c] then lex_error(source, line, column, "bad escape \\" .. c) end
    return map[c]
  end))
end

function Lexer.tokens(text, source)
  source = source or "input"
  return coroutine.wrap(function()
    local pos, line, line_start = 1, 1, 1
    local len = #text
    while pos <= len do
      local c = text:sub(pos, pos)
      local column = pos - line_start + 1
      if c == "\n" then
        line, pos, line_start = line + 1, pos + 1, pos + 1
        goto continue
      elseif c:match("%s") then
        pos = pos + 1
        goto continue
      elseif text:sub(pos, pos + 1) == "--" then
        local stop = text:find("\n", pos, true) or len + 1
        pos = stop
        goto continue
      end
      do
        local number = text:match("^0[xX]%x+", pos) or text:match("^%d+%.?%d*[eE][-+]?%d+", pos)
          or text:match("^%d+%.%d+", pos) or text:match("^%d+", pos)
        if number then
          coroutine.yield({kind = "number", value = tonumber(number),
                           line = line, column = column})
          pos = pos + #number
          goto continue
        end
        local word = text:match("^[%a_][%w_]*", pos)
        if word then
          coroutine.yield({kind = KEYWORDS[word] and word or "name", value = word, line = line, column = column})
          pos = pos + #word
          goto continue
        end
        if c == '"' then
          local stop = pos + 1
          while true do
            local ch = text:sub(stop, stop)
            if ch == "" or ch == "\n" then lex_error(source, line, column, "unfinished string") end
            if ch == "\\" then stop = stop + 2
            elseif ch == '"' then break
            else stop = stop + 1 end
          end
          coroutine.yield({kind = "string", value = unescape(text:sub(pos + 1, stop - 1), source, line, column),
                           line = line, column = column})
          pos = stop + 1
          goto continue
        end
        for _, symbol in ipairs(SYMBOLS) do
          if text:sub(pos, pos + #symbol - 1) == symbol then
            coroutine.yield({kind = symbol, value = symbol, line = line, column = column})
            pos = pos + #symbol
            goto continue
          end
        end
        lex_error(source, line, column, string.format("unexpected character %q", c))
      end
      ::continue::
    end
    coroutine.yield({kind = "eof", value = "<eof>", line = line, column = pos - line_start + 1})
  end)
end

Lexer.Error = LexError
return Lexer
