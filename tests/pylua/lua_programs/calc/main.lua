-- calc: runs scripts of a small language through a lexer, a Pratt parser
-- and a tree-walking evaluator, each a module of its own.
--   lua main.lua [--ast] [--stats] [-e CODE] FILE...
package.path = "./?.lua;" .. package.path

local Parser = require "lib.parser"
local Eval = require "lib.eval"
local Lexer = require "lib.lexer"

local options, files = {ast = false, stats = false}, {}
local args = table.pack(...)
local i = 1
while i <= args.n do
  local a = args[i]
  if a == "--ast" or a == "--stats" then
    options[a:sub(3)] = true
  elseif a == "-e" then
    i = i + 1
    files[#files + 1] = {name = "=(command line)", text = assert(args[i], "-e needs an argument")}
  elseif a:sub(1, 1) == "-" then
    io.stderr:write(("calc: unknown option '%s'\n"):format(a))
    os.exit(2)
  else
    files[#files + 1] = {name = a}
  end
  i = i + 1
end
if #files == 0 then
  io.stderr:write("usage: calc [--ast] [--stats] [-e CODE] FILE...\n")
  os.exit(2)
end

local lines_out = {}
local function out(line)
  lines_out[#lines_out + 1] = line
  print(line)
end

local failures = 0
for _, file in ipairs(files) do
  if not file.text then
    local fh, err = io.open(file.name, "r")
    if not fh then
      io.stderr:write("calc: ", err, "\n")
      failures = failures + 1
      goto next_file
    end
    file.text = fh:read("a")
    fh:close()
  end
  do
    local ok, program = pcall(function() return Parser.new(file.text, file.name):program() end)
    if not ok then
      io.stderr:write("calc: ", tostring(program), "\n")
      failures = failures + 1
      goto next_file
    end
    if options.ast then
      for n, stat in ipairs(program) do
        out(("%3d %-8s %s"):format(n, getmetatable(stat).__name, tostring(stat.value or stat.expr or stat.cond or "")))
      end
    end
    local started = #lines_out
    local scope = Eval.globals(out)
    local ran, err = xpcall(Eval.block, function(e)
      if getmetatable(e) == Eval.RuntimeError or getmetatable(e) == Lexer.Error then return e end
      return "internal: " .. tostring(e)
    end, program, scope)
    if not ran then
      io.stderr:write(("calc: %s: %s\n"):format(file.name, tostring(err)))
      failures = failures + 1
    end
    if options.stats then
      local nodes = 0
      for _, stat in ipairs(program) do nodes = nodes + stat:count() end
      out(("-- %s: %d statements, %d nodes, %d lines printed"):format(file.name, #program, nodes,
                                                                    #lines_out - started))
    end
  end
  ::next_file::
end
os.exit(failures == 0 and 0 or 1)
