-- wordstat: counts words in text files and writes a JSON summary.
--   lua main.lua [--top=N] [--min=N] [--json FILE] FILE...
package.path = "./?.lua;../report/?.lua;" .. package.path

local Parser = require "lib.argparse"
local json = require "lib.json"
local tokenizer = require "lib.tokenizer"
local Counter = require "lib.counter"
local settings = require "lib.defaults"
assert(require "lib.defaults" == settings and package.loaded["lib.defaults"] == settings)

local args = {...}
local files, rest = {}, {}
for _, a in ipairs(args) do
  if a:sub(1, 1) == "-" then rest[#rest + 1] = a else files[#files + 1] = a end
end

local parser = Parser.new("wordstat")
  :option("top", {number = true, default = 5})
  :option("min", {number = true, default = 1})
  :option("json", {default = "summary.json"})
local ok, opts = pcall(parser.parse, parser, rest)
if not ok then io.stderr:write("wordstat: ", tostring(opts), "\n") os.exit(2) end
if #files == 0 then io.stderr:write("wordstat: no input files\n") os.exit(2) end

settings.top = math.tointeger(opts.top) or opts.top
settings.min_length = math.tointeger(opts.min) or opts.min
local okset, err = pcall(function() settings.colour = "red" end)
print("unknown setting refused:", not okset, type(err) == "table" and err.code)
okset, err = pcall(function() settings.top = "ten" end)
print(err)
okset, err = pcall(function() return settings.nothing end)
print(err)

local names = {}
for k, v in pairs(settings) do names[#names + 1] = k .. "=" .. tostring(v) end
table.sort(names)
print(table.concat(names, " "))

local stop = {}
for w in settings.stop:gmatch("[^,]+") do stop[w] = true end

local per_file, numbers, phrases = {}, {}, {}
for _, name in ipairs(files) do
  local fh, msg = io.open(name)
  if not fh then io.stderr:write("wordstat: ", msg, "\n") os.exit(1) end
  fh:close()
  local words = Counter()
  for kind, value, line in tokenizer.tokens(name) do
    if kind == "word" and not stop[value] and #value >= settings.min_length then
      words(value)
    elseif kind == "number" then
      numbers[#numbers + 1] = value
    elseif kind == "phrase" then
      phrases[#phrases + 1] = string.format("%s:%d: %q", name, line, value)
    end
  end
  per_file[#per_file + 1] = {name = name, words = words}
  print(string.format("%-12s %3d distinct  %s", name, #words, tostring(words)))
end

local total = Counter()
for _, f in ipairs(per_file) do total = total + f.words end
print("total " .. total)
print("first file equals itself merged with nothing:", per_file[1].words == per_file[1].words + Counter())

local sum = 0
for _, n in ipairs(numbers) do sum = sum + n end
print(string.format("numbers: %d, sum %s, integer sum? %s", #numbers, sum, math.type(sum)))
for _, p in ipairs(phrases) do print(p) end

-- Titles: capitalise each word, keep the separators.
local function title(s)
  return (s:gsub("(%a)([%w']*)", function(a, b) return a:upper() .. b end))
end
local top = {}
for i, kv in ipairs(total:most_common(settings.top)) do
  top[i] = {word = kv[1], title = title(kv[1]), count = kv[2]}
  print(string.format("%2d. %-10s %3d %s", i, top[i].title, kv[2], string.rep("*", kv[2])))
end

local when = os.time({year = 2024, month = 2, day = 29, hour = 12})
local summary = {
  files = #files,
  distinct = #total,
  top = top,
  generated = os.date("!%Y-%m-%d", 1709208000),
  leap_day = os.date("*t", when).day,
}
local out = assert(io.open(opts.json, "w"))
out:write(json.encode(summary), "\n")
out:close()

local back = assert(io.open(opts.json, "r"))
local size = back:seek("end")
back:seek("set", 0)
local decoded = json.decode(back:read("a"))
back:close()
print(string.format("wrote %s (%d bytes): %d files, top word %q", opts.json, size, decoded.files,
                    decoded.top[1] and decoded.top[1].word or ""))
os.remove(opts.json)
