-- A report generator: reads orders from a JSON file, builds objects,
-- renders a template to stdout and to a file, then reads the file back.
package.path = "./?.lua;" .. package.path

local class = require "lib.class"
local json = require "lib.json"
local template = require "lib.template"
local Parser = require "lib.argparse"

local parser = Parser.new("report")
  :option("format", {choices = {"text", "json"}, default = "text"})
  :option("verbose", {short = "v", flag = true})
  :option("discount", {number = true, default = 0})
  :option("output", {default = "report.out"})
  :argument("input")

local ok, opts = pcall(parser.parse, parser, {...})
if not ok then
  io.stderr:write(tostring(opts), "\n")
  os.exit(2)
end

local Item = class.new("Item")
function Item:init(t) self.name, self.price, self.qty = t.name, t.price, t.qty or 1 end
function Item:total() return self.price * self.qty end
Item.__tostring = function(self) return string.format("%s x%d", self.name, self.qty) end
Item.__lt = function(a, b) return a:total() < b:total() end

local Discounted = class.new("Discounted", Item)
function Discounted:init(t, rate)
  class.super(Discounted, self, "init", t)
  self.rate = rate
end
function Discounted:total() return Item.total(self) * (1 - self.rate) end

local Countable = {count = function(self) return #self.items end}
local Order = class.new("Order").include(Countable)
function Order:init(t, rate)
  self.id, self.customer, self.items = t.id, t.customer, {}
  for _, it in ipairs(t.items) do
    self.items[#self.items + 1] = rate > 0 and Discounted.new(it, rate) or Item.new(it)
  end
  table.sort(self.items, function(a, b) return b < a end)
end
function Order:total()
  local sum = 0
  for _, it in ipairs(self.items) do sum = sum + it:total() end
  return sum
end

local fh = assert(io.open(opts.input, "r"))
local text = fh:read("a")
fh:close()
local ok2, data = pcall(json.decode, text)
if not ok2 then
  io.stderr:write("report: ", data, "\n")
  os.exit(1)
end

local orders = {}
for _, o in ipairs(data.orders) do orders[#orders + 1] = Order.new(o, opts.discount) end

if opts.verbose then
  print(string.format("%d orders, %s is a class: %s, first is an Order: %s", #orders,
                      tostring(Order), tostring(Order.is(orders[1])), tostring(Item.is(orders[1]))))
  print("first item is an Item: " .. tostring(Item.is(orders[1].items[1])))
end

local page = template.compile([[
Report for {{ title | upper }}
{% for o in orders %}
#{{ o.id }} {{ o.customer | title | pad }} {{ o:count() }} item(s), total {{ o:total() | money }}
{% for it in o.items %}
  - {{ tostring(it) }}: {{ it:total() | money }}
{% end %}
{% end %}
{% if discount > 0 %}
Discount applied: {{ discount * 100 }}%
{% else %}
No discount.
{% end %}
]], "report")

local rendered = page({title = data.title, orders = orders, discount = opts.discount})
if opts.format == "json" then
  local out = {title = data.title, orders = {}}
  for i, o in ipairs(orders) do
    out.orders[i] = {id = o.id, customer = o.customer, total = o:total(), items = #o.items}
  end
  print(json.encode(out, "  "))
else
  io.write(rendered)
end

local f = assert(io.open(opts.output, "w"))
f:write(rendered)
f:close()
local lines, bytes = 0, 0
for line in io.lines(opts.output) do lines = lines + 1; bytes = bytes + #line + 1 end
print(string.format("wrote %d lines (%d bytes) to %s", lines, bytes, opts.output))
os.remove(opts.output)
print(json.encode({nested = {1, 2.5, "three", true, {}}, unicode = json.decode('"caf\\u00e9 \\"q\\""'), empty = {}}))
