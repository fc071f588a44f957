-- The evaluator: scopes chained through __index, closures as objects with
-- a __call metamethod, `return` unwinding as an error object, arithmetic
-- keeping Lua's integer/float distinction, runtime errors with positions.
local ast = require "lib.ast"

local Eval = {}

local RuntimeError = {}
RuntimeError.__index = RuntimeError
RuntimeError.__tostring = function(e) return ("runtime error at line %d: %s"):format(e.line or 0, e.message) end
Eval.RuntimeError = RuntimeError

local function fail(node, fmt, ...)
  error(setmetatable({line = node.line, message = fmt:format(...)}, RuntimeError))
end

local ReturnSignal = {}

local Scope = {}
function Scope.new(parent)
  local vars = setmetatable({}, {__index = parent and parent.vars})
  return {vars = vars, parent = parent}
end
function Scope.find(scope, name)
  while scope do
    if rawget(scope.vars, name) ~= nil then return scope end
    scope = scope.parent
  end
end

local Closure = {}
Closure.__index = Closure
Closure.__name = "closure"
Closure.__tostring = function(c) return ("<fn/%d>"):format(#c.node.params) end
Closure.__call = function(self, ...)
  local n = select("#", ...)
  if n ~= #self.node.params then
    error(setmetatable({message = ("expected %d arguments, got %d"):format(#self.node.params, n)}, RuntimeError))
  end
  local scope = Scope.new(self.scope)
  for i, name in ipairs(self.node.params) do scope.vars[name] = (select(i, ...)) end
  local ok, err = pcall(Eval.block, self.node.body, scope)
  if ok then return nil end
  if getmetatable(err) == ReturnSignal then return err.value end
  error(err, 0)
end

local function show(v)
  local t = type(v)
  if t == "string" then return v
  elseif t == "number" then
    if math.type(v) == "float" and v == math.floor(v) and math.abs(v) < 1e15 then
      return string.format("%.1f", v)
    end
    return tostring(v)
  elseif t == "table" and getmetatable(v) == nil then
    local parts = {}
    for i = 1, #v do parts[i] = show(v[i]) end
    return "[" .. table.concat(parts, " ") .. "]"
  end
  return tostring(v)
end
Eval.show = show

local function truthy(v) return v ~= nil and v ~= false end

local arith = {
  ["+"] = function(a, b) return a + b end, ["-"] = function(a, b) return a - b end,
  ["*"] = function(a, b) return a * b end, ["/"] = function(a, b) return a / b end,
  ["//"] = function(a, b) return a // b end, ["%"] = function(a, b) return a % b end,
  ["^"] = function(a, b) return a ^ b end,
  ["<"] = function(a, b) return a < b end, ["<="] = function(a, b) return a <= b end,
  [">"] = function(a, b) return a > b end, [">="] = function(a, b) return a >= b end,
  ["=="] = function(a, b) return a == b end, ["~="] = function(a, b) return a ~= b end,
  [".."] = function(a, b) return show(a) .. show(b) end,
}

local evaluate

local handlers = {
  [ast.Number] = function(node) return node.value end,
  [ast.String] = function(node) return node.value end,
  [ast.Name] = function(node, scope)
    local v = scope.vars[node.name]
    if v == nil then fail(node, "undefined name '%s'", node.name) end
    return v
  end,
  [ast.List] = function(node, scope)
    local items = {}
    for i, item in ipairs(node.items) do items[i] = evaluate(item, scope) end
    return items
  end,
  [ast.Unary] = function(node, scope)
    local v = evaluate(node.operand, scope)
    if node.op == "-" then
      if type(v) ~= "number" then fail(node, "cannot negate a %s", type(v)) end
      return -v
    elseif node.op == "#" then return #v
    else return not truthy(v) end
  end,
  [ast.Binary] = function(node, scope)
    if node.op == "and" then
      local l = evaluate(node.left, scope)
      if not truthy(l) then return l end
      return evaluate(node.right, scope)
    elseif node.op == "or" then
      local l = evaluate(node.left, scope)
      if truthy(l) then return l end
      return evaluate(node.right, scope)
    end
    local a, b = evaluate(node.left, scope), evaluate(node.right, scope)
    local ok, result = pcall(arith[node.op], a, b)
    if not ok then
      fail(node, "%s", (tostring(result):gsub("^[^:]*:%d+: ", "")))
    end
    return result
  end,
  [ast.Index] = function(node, scope)
    local obj, key = evaluate(node.object, scope), evaluate(node.key, scope)
    if type(obj) == "string" then return obj:sub(key, key) end
    if type(obj) ~= "table" then fail(node, "cannot index a %s", type(obj)) end
    return obj[key]
  end,
  [ast.Function] = function(node, scope) return setmetatable({node = node, scope = scope}, Closure) end,
  [ast.Call] = function(node, scope)
    local callee = evaluate(node.callee, scope)
    local args = {}
    for i, a in ipairs(node.args) do args[i] = evaluate(a, scope) end
    if type(callee) ~= "function" and getmetatable(callee) ~= Closure then
      fail(node, "cannot call a %s", type(callee))
    end
    local results = table.pack(pcall(callee, table.unpack(args, 1, #node.args)))
    if not results[1] then
      local err = results[2]
      if getmetatable(err) == RuntimeError and err.line == nil then err.line = node.line end
      error(err, 0)
    end
    return results[2]
  end,
}

function evaluate(node, scope)
  local handler = handlers[getmetatable(node)]
  if not handler then fail(node, "cannot evaluate %s", tostring(node)) end
  return handler(node, scope)
end
Eval.evaluate = evaluate

local statements = {
  [ast.Let] = function(node, scope) scope.vars[node.name] = evaluate(node.value, scope) end,
  [ast.Assign] = function(node, scope)
    local value = evaluate(node.value, scope)
    if getmetatable(node.target) == ast.Index then
      local obj = evaluate(node.target.object, scope)
      obj[evaluate(node.target.key, scope)] = value
      return
    end
    local owner = Scope.find(scope, node.target.name)
    if not owner then fail(node, "assignment to undeclared '%s'", node.target.name) end
    owner.vars[node.target.name] = value
  end,
  [ast.Print] = function(node, scope)
    local parts = {}
    for i, a in ipairs(node.args) do parts[i] = show(evaluate(a, scope)) end
    Eval.out(table.concat(parts, "\t"))
  end,
  [ast.If] = function(node, scope)
    if truthy(evaluate(node.cond, scope)) then Eval.block(node.body, Scope.new(scope))
    elseif node.orelse then Eval.block(node.orelse, Scope.new(scope)) end
  end,
  [ast.While] = function(node, scope)
    local guard = 0
    while truthy(evaluate(node.cond, scope)) do
      guard = guard + 1
      if guard > 100000 then fail(node, "loop limit reached") end
      Eval.block(node.body, Scope.new(scope))
    end
  end,
  [ast.Return] = function(node, scope)
    error(setmetatable({value = evaluate(node.value, scope)}, ReturnSignal), 0)
  end,
  [ast.ExprStat] = function(node, scope) evaluate(node.expr, scope) end,
}

function Eval.block(body, scope)
  for _, stat in ipairs(body) do
    statements[getmetatable(stat)](stat, scope)
  end
end

function Eval.globals(out)
  local scope = Scope.new(nil)
  Eval.out = out
  local g = scope.vars
  g.len = function(v) return #v end
  g.str = function(v) return show(v) end
  g.num = function(s) return tonumber(s) end
  g.upper = string.upper
  g.rep = function(s, n) return string.rep(s, n) end
  g.floor = function(x) return math.floor(x) end
  g.sqrt = math.sqrt
  g.push = function(list, v) list[#list + 1] = v return list end
  g.sort = function(list) table.sort(list) return list end
  g.join = function(list, sep) return table.concat(list, sep) end
  g.split = function(s, sep)
    local parts = {}
    for piece in (s .. sep):gmatch("(.-)" .. sep:gsub("%p", "%%%0")) do parts[#parts + 1] = piece end
    return parts
  end
  g.format = function(fmt, ...) return string.format(fmt, ...) end
  g.type = function(v)
    if getmetatable(v) == Closure then return "function" end
    return math.type(v) or type(v)
  end
  g.fail = function(message) error(setmetatable({message = message}, RuntimeError)) end
  g["true"], g["false"] = true, false
  return scope
end

return Eval
