-- A line tracer: which lines of a function run, in order.
local trace = {}

local function classify(n)
  if n % 15 == 0 then
    return "fizzbuzz"
  elseif n % 3 == 0 then
    return "fizz"
  elseif n % 5 == 0 then
    return "buzz"
  end
  return tostring(n)
end

local function run()
  local out = {}
  for i = 1, 5 do
    out[#out + 1] = classify(i)
  end
  local k = 0
  while k < 2 do
    k = k + 1
  end
  repeat
    k = k - 1
  until k == 0
  for _, v in ipairs({"a", "b"}) do
    out[#out + 1] = v
  end
  return table.concat(out, ",")
end

debug.sethook(function (event, line)
  trace[#trace + 1] = line
end, "l")
local result = run()
debug.sethook()

print(result)
print(table.concat(trace, " "))
print(debug.gethook())

-- one-line loops count one event per iteration after the first
trace = {}
debug.sethook(function (_, line) trace[#trace + 1] = line end, "l")
for i = 1, 3 do local x = i end
debug.sethook()
print(#trace)
