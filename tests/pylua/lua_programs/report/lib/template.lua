-- A template engine: {{ expr }} and {{ expr | filter }}, {% for x in list %},
-- {% if cond %} / {% else %} / {% end %}; templates compile to Lua chunks.
local template = {}

template.filters = {
  upper = string.upper,
  lower = string.lower,
  title = function(s) return (s:gsub("(%a)([%w_']*)", function(a, b) return a:upper() .. b:lower() end)) end,
  money = function(n) return string.format("%.2f", n) end,
  pad = function(s) return string.format("%-12s", s) end,
}

local function compile_expr(expr)
  local base, filters = expr:match("^%s*(.-)%s*|%s*(.-)%s*$")
  if not base then return "(" .. expr .. ")" end
  local code = "(" .. base .. ")"
  for name in filters:gmatch("[%w_]+") do
    code = string.format("_filters[%q](%s)", name, code)
  end
  return code
end

function template.compile(text, name)
  local code = {"local _out, _filters = {}, ...\n"}
  local pos = 1
  local function emit_text(s)
    if s ~= "" then code[#code + 1] = string.format("_out[#_out + 1] = %q\n", s) end
  end
  while true do
    local start, kind, body, stop = text:match("()({[{%%])(.-)[}%%]}()", pos)
    if not start then emit_text(text:sub(pos)) break end
    emit_text(text:sub(pos, start - 1))
    if kind == "{{" then
      code[#code + 1] = "_out[#_out + 1] = tostring(" .. compile_expr(body) .. ")\n"
    else
      local stmt = body:match("^%s*(.-)%s*$")
      local var, list = stmt:match("^for%s+([%w_]+)%s+in%s+(.+)$")
      if var then
        code[#code + 1] = string.format("for _, %s in ipairs(%s) do\n", var, list)
      elseif stmt:match("^if%s") then
        code[#code + 1] = stmt .. " then\n"
      elseif stmt == "else" or stmt == "end" then
        code[#code + 1] = stmt .. "\n"
      else
        error(string.format("%s: unknown tag '%s'", name or "template", stmt), 2)
      end
    end
    pos = stop
    if text:sub(pos, pos) == "\n" and kind == "{%" then pos = pos + 1 end
  end
  code[#code + 1] = "return table.concat(_out)"
  local source = table.concat(code)
  return function(env)
    local scope = setmetatable({}, {__index = function(_, k)
      local v = env[k]
      if v == nil then v = _G[k] end
      return v
    end})
    local chunk, err = load(source, "=" .. (name or "template"), "t", scope)
    if not chunk then error(err, 2) end
    return chunk(template.filters)
  end
end

return template
