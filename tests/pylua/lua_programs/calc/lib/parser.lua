-- A Pratt parser over the lexer's coroutine: binding powers in a table,
-- prefix and infix handlers as closures, errors raised with the token's
-- position at the caller's level.
local Lexer = require "lib.lexer"
local ast = require "lib.ast"

local Parser = {}
Parser.__index = Parser

local INFIX = {
  ["or"] = {1, 2}, ["and"] = {3, 4},
  ["=="] = {5, 6}, ["~="] = {5, 6}, ["<"] = {5, 6}, ["<="] = {5, 6}, [">"] = {5, 6}, [">="] = {5, 6},
  [".."] = {8, 7},                       -- right associative
  ["+"] = {9, 10}, ["-"] = {9, 10},
  ["*"] = {11, 12}, ["/"] = {11, 12}, ["//"] = {11, 12}, ["%"] = {11, 12},
  ["^"] = {16, 15},
}
local PREFIX_POWER = 13

function Parser.new(text, source)
  local self = setmetatable({source = source or "input"}, Parser)
  self.next_token = Lexer.tokens(text, self.source)
  self.current = self.next_token()
  return self
end

function Parser:fail(message, token)
  token = token or self.current
  error(string.format("%s:%d:%d: %s near '%s'", self.source, token.line, token.column, message,
                      tostring(token.value)), 0)
end

function Parser:advance()
  local token = self.current
  self.current = self.next_token()
  return token
end

function Parser:check(kind) return self.current.kind == kind end

function Parser:accept(kind)
  if self:check(kind) then return self:advance() end
end

function Parser:expect(kind, what)
  return self:accept(kind) or self:fail(("expected %s"):format(what or ("'" .. kind .. "'")))
end

function Parser:list_of(close, item)
  local items = {}
  if not self:check(close) then
    repeat items[#items + 1] = item(self) until not self:accept(",")
  end
  self:expect(close)
  return items
end

local prefix = {}
prefix.number = function(self, tok) return ast.Number:new{value = tok.value} end
prefix.string = function(self, tok) return ast.String:new{value = tok.value} end
prefix.name = function(self, tok) return ast.Name:new{name = tok.value, line = tok.line} end
prefix["("] = function(self)
  local e = self:expression(0)
  self:expect(")")
  return e
end
prefix["["] = function(self)
  return ast.List:new{items = self:list_of("]", function(p) return p:expression(0) end)}
end
prefix["-"] = function(self, tok) return ast.Unary:new{op = "-", operand = self:expression(PREFIX_POWER)} end
prefix["not"] = function(self, tok) return ast.Unary:new{op = "not", operand = self:expression(PREFIX_POWER)} end
prefix["#"] = function(self, tok) return ast.Unary:new{op = "#", operand = self:expression(PREFIX_POWER)} end
prefix.fn = function(self, tok)
  self:expect("(")
  local params = self:list_of(")", function(p) return p:expect("name", "a parameter name").value end)
  local body = self:block({["end"] = true})
  self:expect("end")
  return ast.Function:new{params = params, body = body, line = tok.line}
end

function Parser:postfix(left)
  while true do
    if self:check("(") then
      local tok = self:advance()
      left = ast.Call:new{callee = left, args = self:list_of(")", function(p) return p:expression(0) end),
                         line = tok.line}
    elseif self:accept("[") then
      local key = self:expression(0)
      self:expect("]")
      left = ast.Index:new{object = left, key = key}
    else
      return left
    end
  end
end

function Parser:expression(min_power)
  local tok = self:advance()
  local handler = prefix[tok.kind]
  if not handler then self:fail("unexpected symbol", tok) end
  local left = self:postfix(handler(self, tok))
  while true do
    local powers = INFIX[self.current.kind]
    if not powers or powers[1] < min_power then break end
    local op = self:advance().kind
    left = ast.Binary:new{op = op, left = left, right = self:expression(powers[2]), line = tok.line}
  end
  return left
end

function Parser:statement()
  local tok = self.current
  if self:accept("let") then
    local name = self:expect("name", "a name").value
    self:expect("=")
    return ast.Let:new{name = name, value = self:expression(0), line = tok.line}
  elseif self:accept("print") then
    return ast.Print:new{args = self:list_of(";", function(p) return p:expression(0) end), line = tok.line}
  elseif self:accept("if") then
    local cond = self:expression(0)
    self:expect("then")
    local body = self:block({["else"] = true, ["end"] = true})
    local orelse
    if self:accept("else") then orelse = self:block({["end"] = true}) end
    self:expect("end")
    return ast.If:new{cond = cond, body = body, orelse = orelse}
  elseif self:accept("while") then
    local cond = self:expression(0)
    self:expect("do")
    local body = self:block({["end"] = true})
    self:expect("end")
    return ast.While:new{cond = cond, body = body}
  elseif self:accept("return") then
    return ast.Return:new{value = self:expression(0), line = tok.line}
  end
  local expr = self:expression(0)
  if self:accept("=") then
    if expr.super ~= nil and getmetatable(expr) ~= ast.Name and getmetatable(expr) ~= ast.Index then
      self:fail("cannot assign to " .. getmetatable(expr).__name, tok)
    end
    return ast.Assign:new{target = expr, value = self:expression(0), line = tok.line}
  end
  self:accept(";")
  return ast.ExprStat:new{expr = expr, line = tok.line}
end

function Parser:block(terminators)
  local body = {}
  while not terminators[self.current.kind] do
    if self:check("eof") then self:fail("unexpected end of input") end
    body[#body + 1] = self:statement()
  end
  return body
end

function Parser:program()
  local body = self:block({eof = true})
  return body
end

return Parser
