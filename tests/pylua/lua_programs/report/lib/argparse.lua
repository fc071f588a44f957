-- Command-line arguments: --name=value, --name value, -f flags (grouped),
-- positionals, defaults, choices, and a usage text on errors.
local class = require "lib.class"

local Parser = class.new("Parser")

function Parser:init(prog)
  self.prog = prog
  self.options = {}
  self.positionals = {}
end

function Parser:option(name, spec)
  spec = spec or {}
  spec.name = name
  self.options[name] = spec
  if spec.short then self.options[spec.short] = spec end
  return self
end

function Parser:argument(name, spec)
  spec = spec or {}
  spec.name = name
  self.positionals[#self.positionals + 1] = spec
  return self
end

function Parser:usage()
  local parts = {"usage: " .. self.prog}
  local names = {}
  for key, spec in pairs(self.options) do
    if key == spec.name then names[#names + 1] = spec end
  end
  table.sort(names, function(a, b) return a.name < b.name end)
  for _, spec in ipairs(names) do
    local text = "--" .. spec.name .. (spec.flag and "" or "=" .. spec.name:upper())
    parts[#parts + 1] = "[" .. text .. "]"
  end
  for _, spec in ipairs(self.positionals) do parts[#parts + 1] = spec.name end
  return table.concat(parts, " ")
end

function Parser:error(msg)
  error(setmetatable({message = msg, usage = self:usage()},
                     {__tostring = function(e) return e.message .. "\n" .. e.usage end}), 0)
end

function Parser:set(result, spec, value)
  if spec.flag then
    result[spec.name] = (result[spec.name] or 0) + 1
    return
  end
  if value == nil then self:error("option '" .. spec.name .. "' needs a value") end
  if spec.choices then
    local ok = false
    for _, c in ipairs(spec.choices) do ok = ok or c == value end
    if not ok then
      self:error(string.format("option '%s': '%s' is not one of %s", spec.name, value,
                               table.concat(spec.choices, ", ")))
    end
  end
  if spec.number then
    value = tonumber(value) or self:error("option '" .. spec.name .. "' needs a number")
  end
  result[spec.name] = value
end

function Parser:parse(args)
  local result, rest = {}, {}
  local i = 1
  while i <= #args do
    local a = args[i]
    local long, value = a:match("^%-%-([%w-]+)=(.*)$")
    if not long then long = a:match("^%-%-([%w-]+)$") end
    if long then
      local spec = self.options[long] or self:error("unknown option '--" .. long .. "'")
      if value == nil and not spec.flag then i = i + 1; value = args[i] end
      self:set(result, spec, value)
    elseif a:match("^%-%a+$") then
      for f in a:sub(2):gmatch(".") do
        local spec = self.options[f] or self:error("unknown option '-" .. f .. "'")
        self:set(result, spec, nil)
      end
    else
      rest[#rest + 1] = a
    end
    i = i + 1
  end
  for n, spec in ipairs(self.positionals) do
    result[spec.name] = rest[n] or spec.default or self:error("missing argument '" .. spec.name .. "'")
  end
  for key, spec in pairs(self.options) do
    if key == spec.name and result[key] == nil then result[key] = spec.default end
  end
  return result
end

return Parser
