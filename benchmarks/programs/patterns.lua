-- Pattern matching: string.gmatch with and without captures, string.gsub
-- with a replacement string (%1 references), with a function, and with a
-- character class, over a generated text of ~200 KB.
local WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta",
               "eta", "theta", "iota", "kappa", "lambda", "mu"}

local function make_text(n)
  local seed = 12345
  local parts = {}
  for i = 1, n do
    seed = (seed * 1103515245 + 12345) % 2147483648
    local w = WORDS[seed % #WORDS + 1]
    if seed % 5 == 0 then
      w = w .. "=" .. (seed % 1000)
    end
    if i % 12 == 0 then
      w = w .. ".\n"
    end
    parts[i] = w
  end
  return table.concat(parts, " ")
end

local function run(text)
  local freq, distinct, words = {}, 0, 0
  for w in string.gmatch(text, "%a+") do
    local c = freq[w]
    if c == nil then
      distinct = distinct + 1
      c = 0
    end
    freq[w] = c + 1
    words = words + 1
  end

  local pairs_sum, npairs = 0, 0
  for k, v in string.gmatch(text, "(%a+)=(%d+)") do
    pairs_sum = pairs_sum + #k * tonumber(v)
    npairs = npairs + 1
  end

  local lines = 0
  for line in string.gmatch(text, "[^\n]+") do
    if string.find(line, "gamma", 1, true) then
      lines = lines + 1
    end
  end

  local swapped, nswap = string.gsub(text, "(%a+)=(%d+)", "%2:%1")
  local doubled = string.gsub(text, "%d+", function(d) return tostring(tonumber(d) * 2) end)
  local squeezed, nspace = string.gsub(text, "%s+", " ")
  return string.format("words = %d, distinct = %d, gamma = %d, pairs = %d/%d, lines = %d, "
    .. "swapped = %d/%d, doubled = %d, squeezed = %d/%d",
    words, distinct, freq.gamma, npairs, pairs_sum, lines,
    #swapped, nswap, #doubled, #squeezed, nspace)
end

local text = make_text(30000)
local result
for _ = 1, 7 do
  result = run(text)
end
print(result)
