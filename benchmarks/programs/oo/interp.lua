-- Interp: a tree-walking interpreter for a small language, written as
-- interpreters in Lua are: a pattern-based tokenizer over the source
-- string, a recursive-descent parser building nodes of classes that share
-- an eval method through __index, and scopes that are tables chained to
-- their parent's by __index, made for every call and written as it runs.
local SOURCE = [[
fn fib(n) { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); }
fn sum_to(n) { let s = 0; let i = 1; while (i <= n) { s = s + i * i % 7; i = i + 1; } return s; }
fn make_adder(k) { return fn(x) { return x + k; }; }
fn apply_all(f, n) { let acc = 0; let i = 0; while (i < n) { acc = f(acc) % 1000003; i = i + 1; } return acc; }
let total = fib(13) + sum_to(300);
let add3 = make_adder(3);
total = total + apply_all(add3, 200) + apply_all(make_adder(total % 11), 150);
return total;
]]

local function tokenize(src)
  local tokens, pos = {}, 1
  while true do
    pos = src:find("%S", pos)
    if not pos then break end
    local num = src:match("^%d+", pos)
    if num then
      tokens[#tokens + 1] = {kind = "num", value = tonumber(num)}
      pos = pos + #num
    else
      local word = src:match("^[%a_][%w_]*", pos)
      if word then
        tokens[#tokens + 1] = {kind = "word", value = word}
        pos = pos + #word
      else
        local op = src:match("^[<>=!]=", pos) or src:sub(pos, pos)
        tokens[#tokens + 1] = {kind = "op", value = op}
        pos = pos + #op
      end
    end
  end
  tokens[#tokens + 1] = {kind = "eof", value = "<eof>"}
  return tokens
end

local Node = {}
Node.__index = Node
local function class(parent)
  local c = setmetatable({}, {__index = parent})
  c.__index = c
  return c
end
local function new(cls, fields) return setmetatable(fields, cls) end

local Num, Var, Bin, Call, Func = class(Node), class(Node), class(Node), class(Node), class(Node)
local Let, Assign, If, While, Return, Block, Expr = class(Node), class(Node), class(Node), class(Node),
  class(Node), class(Node), class(Node)

local ReturnValue = {}
local BINARY = {
  ["+"] = function(a, b) return a + b end, ["-"] = function(a, b) return a - b end,
  ["*"] = function(a, b) return a * b end, ["%"] = function(a, b) return a % b end,
  ["<"] = function(a, b) return a < b end, ["<="] = function(a, b) return a <= b end,
  [">"] = function(a, b) return a > b end, ["=="] = function(a, b) return a == b end,
}

function Num:eval() return self.value end
function Var:eval(scope) return scope[self.name] end
function Bin:eval(scope) return self.fn(self.left:eval(scope), self.right:eval(scope)) end
function Func:eval(scope)
  local node = self
  return function(...)
    local frame = setmetatable({}, {__index = scope})
    for i, name in ipairs(node.params) do frame[name] = select(i, ...) end
    local ok, result = pcall(node.body.run, node.body, frame)
    if ok then return nil end
    if getmetatable(result) == ReturnValue then return result.value end
    error(result, 0)
  end
end
function Call:eval(scope)
  local f = self.callee:eval(scope)
  local args = {}
  for i, a in ipairs(self.args) do args[i] = a:eval(scope) end
  return f(table.unpack(args, 1, #self.args))
end
function Let:run(scope) rawset(scope, self.name, self.value:eval(scope)) end
function Assign:run(scope)
  local value, s = self.value:eval(scope), scope
  while rawget(s, self.name) == nil do s = getmetatable(s).__index end
  s[self.name] = value
end
function If:run(scope) if self.cond:eval(scope) then self.body:run(setmetatable({}, {__index = scope})) end end
function While:run(scope) while self.cond:eval(scope) do self.body:run(setmetatable({}, {__index = scope})) end end
function Return:run(scope) error(setmetatable({value = self.value:eval(scope)}, ReturnValue), 0) end
function Block:run(scope) for _, s in ipairs(self.stats) do s:run(scope) end end
function Expr:run(scope) self.expr:eval(scope) end

local Parser = {}
Parser.__index = Parser
function Parser:peek() return self.tokens[self.pos] end
function Parser:take() self.pos = self.pos + 1 return self.tokens[self.pos - 1] end
function Parser:expect(v)
  local t = self:take()
  if t.value ~= v then error("expected " .. v .. " near " .. t.value) end
end
function Parser:primary()
  local t = self:take()
  local e
  if t.kind == "num" then e = new(Num, {value = t.value})
  elseif t.value == "(" then e = self:expr() self:expect(")")
  elseif t.value == "fn" then e = self:func()
  else e = new(Var, {name = t.value}) end
  while self:peek().value == "(" do
    self:take()
    local args = {}
    while self:peek().value ~= ")" do
      args[#args + 1] = self:expr()
      if self:peek().value == "," then self:take() end
    end
    self:take()
    e = new(Call, {callee = e, args = args})
  end
  return e
end
local PRIORITY = {["<"] = 1, ["<="] = 1, [">"] = 1, ["=="] = 1, ["+"] = 2, ["-"] = 2, ["*"] = 3, ["%"] = 3}
function Parser:expr(min)
  local left = self:primary()
  while true do
    local op = self:peek().value
    local p = PRIORITY[op]
    if not p or p <= (min or 0) then return left end
    self:take()
    left = new(Bin, {fn = BINARY[op], left = left, right = self:expr(p)})
  end
end
function Parser:func()
  local params = {}
  self:expect("(")
  while self:peek().value ~= ")" do
    params[#params + 1] = self:take().value
    if self:peek().value == "," then self:take() end
  end
  self:take()
  return new(Func, {params = params, body = self:block()})
end
function Parser:block()
  self:expect("{")
  local stats = {}
  while self:peek().value ~= "}" do stats[#stats + 1] = self:statement() end
  self:take()
  return new(Block, {stats = stats})
end
function Parser:statement()
  local t = self:peek()
  if t.value == "let" then
    self:take()
    local name = self:take().value
    self:expect("=")
    local s = new(Let, {name = name, value = self:expr()})
    self:expect(";")
    return s
  elseif t.value == "fn" and self.tokens[self.pos + 1].kind == "word" then
    self:take()
    local name = self:take().value
    return new(Let, {name = name, value = self:func()})
  elseif t.value == "if" or t.value == "while" then
    self:take()
    self:expect("(")
    local cond = self:expr()
    self:expect(")")
    return new(t.value == "if" and If or While, {cond = cond, body = self:block()})
  elseif t.value == "return" then
    self:take()
    local s = new(Return, {value = self:expr()})
    self:expect(";")
    return s
  elseif self.tokens[self.pos + 1].value == "=" then
    local name = self:take().value
    self:take()
    local s = new(Assign, {name = name, value = self:expr()})
    self:expect(";")
    return s
  end
  local s = new(Expr, {expr = self:expr()})
  self:expect(";")
  return s
end

local function run(src)
  local parser = setmetatable({tokens = tokenize(src), pos = 1}, Parser)
  local stats = {}
  while parser:peek().kind ~= "eof" do stats[#stats + 1] = parser:statement() end
  local program = new(Block, {stats = stats})
  local ok, result = pcall(program.run, program, {})
  return getmetatable(result) == ReturnValue and result.value or error(result)
end

local checksum, tokens = 0, 0
for round = 1, 12 do
  local src = SOURCE:gsub("300", tostring(300 + round))
  tokens = tokens + #tokenize(src)
  checksum = (checksum * 31 + run(src)) % 1000000007
end
print(string.format("interp: tokens = %d, checksum = %d", tokens, checksum))
