-- A JSON parser and serializer over strings: a Parser class reading
-- character by character with s:sub(i, i), string building in buffers and
-- table.concat, objects as a JsonObject class keeping key order, string
-- keys, numbers through tonumber, escapes found with s:find and s:gsub.
local NULL = setmetatable({}, {__tostring = function() return "null" end})

local JsonObject = {}
JsonObject.__index = JsonObject

function JsonObject.new()
  return setmetatable({keys = {}, values = {}}, JsonObject)
end

function JsonObject:set(key, value)
  if self.values[key] == nil then
    table.insert(self.keys, key)
  end
  self.values[key] = value
end

function JsonObject:get(key)
  return self.values[key]
end

local Parser = {}
Parser.__index = Parser

function Parser.new(text)
  local self = setmetatable({text = text, pos = 1, current = nil}, Parser)
  self:read()
  return self
end

function Parser:read()
  self.current = self.text:sub(self.pos, self.pos)
  self.pos = self.pos + 1
end

function Parser:fail(expected)
  error("Expected " .. expected .. " at " .. (self.pos - 1))
end

function Parser:skip_white_space()
  local c = self.current
  while c == " " or c == "\n" or c == "\t" or c == "\r" do
    self:read()
    c = self.current
  end
end

function Parser:read_char(ch)
  if self.current ~= ch then
    return false
  end
  self:read()
  return true
end

function Parser:expect(ch)
  if not self:read_char(ch) then
    self:fail("'" .. ch .. "'")
  end
end

function Parser:parse()
  self:skip_white_space()
  local value = self:read_value()
  self:skip_white_space()
  if self.current ~= "" then
    self:fail("end of input")
  end
  return value
end

function Parser:read_value()
  local c = self.current
  if c == "{" then
    return self:read_object()
  elseif c == "[" then
    return self:read_array()
  elseif c == '"' then
    return self:read_string()
  elseif c == "t" then
    self:read_word("true")
    return true
  elseif c == "f" then
    self:read_word("false")
    return false
  elseif c == "n" then
    self:read_word("null")
    return NULL
  end
  return self:read_number()
end

function Parser:read_word(word)
  for i = 1, #word do
    self:expect(word:sub(i, i))
  end
end

function Parser:read_object()
  self:read()
  local object = JsonObject.new()
  self:skip_white_space()
  if self:read_char("}") then
    return object
  end
  repeat
    self:skip_white_space()
    local key = self:read_string()
    self:skip_white_space()
    self:expect(":")
    self:skip_white_space()
    object:set(key, self:read_value())
    self:skip_white_space()
  until not self:read_char(",")
  self:expect("}")
  return object
end

function Parser:read_array()
  self:read()
  local array = {}
  self:skip_white_space()
  if self:read_char("]") then
    return array
  end
  repeat
    self:skip_white_space()
    table.insert(array, self:read_value())
    self:skip_white_space()
  until not self:read_char(",")
  self:expect("]")
  return array
end

local UNESCAPE = {['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f",
                  n = "\n", r = "\r", t = "\t"}

function Parser:read_string()
  self:expect('"')
  local parts = {}
  local start = self.pos - 1
  while self.current ~= '"' do
    local c = self.current
    if c == "\\" then
      table.insert(parts, self.text:sub(start, self.pos - 2))
      self:read()
      local unescaped = UNESCAPE[self.current]
      if unescaped == nil then
        self:fail("valid escape sequence")
      end
      table.insert(parts, unescaped)
      self:read()
      start = self.pos - 1
    elseif c == "" then
      self:fail("closing quote")
    else
      self:read()
    end
  end
  table.insert(parts, self.text:sub(start, self.pos - 2))
  self:read()
  return table.concat(parts)
end

local NUMBER_CHARS = {["-"] = true, ["+"] = true, ["."] = true, e = true, E = true}
for d = 0, 9 do
  NUMBER_CHARS[tostring(d)] = true
end

function Parser:read_number()
  local start = self.pos - 1
  while NUMBER_CHARS[self.current] do
    self:read()
  end
  local number = tonumber(self.text:sub(start, self.pos - 2))
  if number == nil then
    self:fail("value")
  end
  return number
end

local ESCAPE = {['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r",
                ["\t"] = "\\t"}

local Serializer = {}
Serializer.__index = Serializer

function Serializer.new()
  return setmetatable({parts = {}}, Serializer)
end

function Serializer:write_string(s)
  local parts = self.parts
  if s:find('[%c"\\]') then
    s = s:gsub('[%c"\\]', ESCAPE)
  end
  parts[#parts + 1] = '"'
  parts[#parts + 1] = s
  parts[#parts + 1] = '"'
end

function Serializer:write(value)
  local parts = self.parts
  local kind = type(value)
  if kind == "string" then
    self:write_string(value)
  elseif kind == "number" then
    if math.type(value) == "integer" then
      parts[#parts + 1] = string.format("%d", value)
    else
      parts[#parts + 1] = string.format("%.14g", value)
    end
  elseif kind == "boolean" then
    parts[#parts + 1] = value and "true" or "false"
  elseif value == NULL then
    parts[#parts + 1] = "null"
  elseif getmetatable(value) == JsonObject then
    parts[#parts + 1] = "{"
    for i, key in ipairs(value.keys) do
      if i > 1 then
        parts[#parts + 1] = ","
      end
      self:write_string(key)
      parts[#parts + 1] = ":"
      self:write(value.values[key])
    end
    parts[#parts + 1] = "}"
  else
    parts[#parts + 1] = "["
    for i, item in ipairs(value) do
      if i > 1 then
        parts[#parts + 1] = ","
      end
      self:write(item)
    end
    parts[#parts + 1] = "]"
  end
end

function Serializer:result()
  return table.concat(self.parts)
end

local function serialize(value)
  local s = Serializer.new()
  s:write(value)
  return s:result()
end

local function make_document(n)
  local items = {}
  for i = 1, n do
    local item = JsonObject.new()
    item:set("id", i)
    item:set("name", "item " .. i .. (i % 7 == 0 and ' "special"\n' or ""))
    item:set("price", i * 0.25)
    item:set("active", i % 3 == 0)
    item:set("tags", {"t" .. (i % 5), "t" .. (i % 11)})
    local where = JsonObject.new()
    where:set("x", i * 3 - 100)
    where:set("y", i % 4 == 0 and NULL or -i)
    item:set("where", where)
    table.insert(items, item)
  end
  local document = JsonObject.new()
  document:set("title", "inventory\twith\\escapes")
  document:set("items", items)
  return document
end

local text = serialize(make_document(150))
local checksum = 0
for _ = 1, 20 do
  local document = Parser.new(text):parse()
  local items = document:get("items")
  for _, item in ipairs(items) do
    checksum = checksum + item:get("id") + #item:get("name") + #item:get("tags")
    if item:get("active") then
      checksum = checksum + item:get("where"):get("x")
    end
  end
  local again = serialize(document)
  if again ~= text then
    error("round trip changed the document")
  end
  checksum = checksum + #again
end
print(string.format("json: %d bytes, checksum = %d", #text, checksum))
