-- JSON encoding and decoding: objects with sorted keys, arrays, escapes,
-- \u escapes to UTF-8, numbers as integers or floats, error positions.
local json = {}

local ESCAPES = {['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f',
                 ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t'}

local function is_array(t)
  local n = 0
  for k in pairs(t) do
    if math.type(k) ~= "integer" or k < 1 then return false end
    n = math.max(n, k)
  end
  return n == #t
end

local encode

local function encode_string(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return ESCAPES[c] or string.format("\\u%04x", c:byte())
  end) .. '"'
end

function encode(v, indent, depth)
  local t = type(v)
  depth = depth or 0
  if t == "nil" then return "null"
  elseif t == "boolean" then return tostring(v)
  elseif t == "number" then
    if v ~= v or v == math.huge or v == -math.huge then error("cannot encode " .. tostring(v), 2) end
    if math.type(v) == "integer" then return tostring(v) end
    return string.format("%.14g", v)
  elseif t == "string" then return encode_string(v)
  elseif t == "table" then
    local pad = indent and ("\n" .. string.rep(indent, depth + 1)) or ""
    local close = indent and ("\n" .. string.rep(indent, depth)) or ""
    local parts = {}
    if next(v) == nil then return is_array(v) and "[]" or "{}" end
    if is_array(v) then
      for i = 1, #v do parts[i] = pad .. encode(v[i], indent, depth + 1) end
      return "[" .. table.concat(parts, ",") .. close .. "]"
    end
    local keys = {}
    for k in pairs(v) do
      if type(k) ~= "string" then error("object keys must be strings, got " .. type(k), 2) end
      keys[#keys + 1] = k
    end
    table.sort(keys)
    for i, k in ipairs(keys) do
      parts[i] = pad .. encode_string(k) .. (indent and ": " or ":") .. encode(v[k], indent, depth + 1)
    end
    return "{" .. table.concat(parts, ",") .. close .. "}"
  end
  error("cannot encode a " .. t, 2)
end

json.encode = function(v, indent) return encode(v, indent) end

local Decoder = {}
Decoder.__index = Decoder

function Decoder:fail(msg)
  local line, col = 1, 1
  for i = 1, self.pos - 1 do
    if self.text:sub(i, i) == "\n" then line, col = line + 1, 1 else col = col + 1 end
  end
  error(string.format("json: %s at line %d column %d", msg, line, col), 0)
end

function Decoder:skip()
  self.pos = self.text:find("[^ \t\r\n]", self.pos) or #self.text + 1
end

function Decoder:peek() self:skip() return self.text:sub(self.pos, self.pos) end

function Decoder:expect(s)
  if self.text:sub(self.pos, self.pos + #s - 1) ~= s then self:fail("expected '" .. s .. "'") end
  self.pos = self.pos + #s
end

function Decoder:string()
  self:expect('"')
  local out = {}
  while true do
    local chunk, stop = self.text:match('^([^"\\]*)()', self.pos)
    out[#out + 1] = chunk
    self.pos = stop
    local c = self.text:sub(self.pos, self.pos)
    if c == '"' then self.pos = self.pos + 1; break end
    if c == "" then self:fail("unfinished string") end
    local e = self.text:sub(self.pos + 1, self.pos + 1)
    if e == "u" then
      local hex = self.text:match("^%x%x%x%x", self.pos + 2) or self:fail("bad \\u escape")
      out[#out + 1] = utf8.char(tonumber(hex, 16))
      self.pos = self.pos + 6
    else
      local map = {b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", ['"'] = '"', ["\\"] = "\\", ["/"] = "/"}
      out[#out + 1] = map[e] or self:fail("bad escape '\\" .. e .. "'")
      self.pos = self.pos + 2
    end
  end
  return table.concat(out)
end

function Decoder:value()
  local c = self:peek()
  if c == "{" then
    self.pos = self.pos + 1
    local obj = {}
    if self:peek() == "}" then self.pos = self.pos + 1 return obj end
    repeat
      self:skip()
      local k = self:string()
      self:skip(); self:expect(":")
      obj[k] = self:value()
      local sep = self:peek()
      self.pos = self.pos + 1
    until sep ~= ","
    if self.text:sub(self.pos - 1, self.pos - 1) ~= "}" then self.pos = self.pos - 1; self:fail("expected '}'") end
    return obj
  elseif c == "[" then
    self.pos = self.pos + 1
    local arr = {}
    if self:peek() == "]" then self.pos = self.pos + 1 return arr end
    repeat
      arr[#arr + 1] = self:value()
      local sep = self:peek()
      self.pos = self.pos + 1
    until sep ~= ","
    if self.text:sub(self.pos - 1, self.pos - 1) ~= "]" then self.pos = self.pos - 1; self:fail("expected ']'") end
    return arr
  elseif c == '"' then return self:string()
  elseif self.text:find("^true", self.pos) then self.pos = self.pos + 4 return true
  elseif self.text:find("^false", self.pos) then self.pos = self.pos + 5 return false
  elseif self.text:find("^null", self.pos) then self.pos = self.pos + 4 return json.null
  end
  local num, stop = self.text:match("^(-?%d+%.?%d*[eE]?[-+]?%d*)()", self.pos)
  if not num then self:fail("unexpected character '" .. c .. "'") end
  self.pos = stop
  return math.tointeger(tonumber(num)) or tonumber(num)
end

json.null = setmetatable({}, {__tostring = function() return "null" end})

function json.decode(text)
  local d = setmetatable({text = text, pos = 1}, Decoder)
  local v = d:value()
  d:skip()
  if d.pos <= #text then d:fail("trailing characters") end
  return v
end

return json
