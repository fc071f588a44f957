"""Hostile Lua programs: each keeps one kind of work busy for as long as it
is let run, or one allocator allocating, so that cancel, count hooks and
the memory ceiling can be measured against it (``benchmarks.cancel_latency``,
``benchmarks.memory_overshoot``) and tested (``tests/properties``).
"""
from __future__ import annotations

from dataclasses import dataclass

# Library families: one function driven hard with big arguments, in a loop
# (``{n}`` scales the big values; literal braces are doubled).
BIG = 'local s = string.rep("ab", {n} * 2^19) '
FAMILIES = {
    'upper': BIG + 'while true do local u = s:upper() end',
    'lower': BIG + 'while true do local u = s:lower() end',
    'reverse': BIG + 'while true do local u = s:reverse() end',
    'sub': BIG + 'while true do local u = s:sub(2, -2) end',
    'rep': 'while true do local u = ("x"):rep({n} * 2^20) end',
    'byte': 'local s = string.rep("x", 900000) while true do local a = s:byte(1, -1) end',
    'char': 'local t = {{}} for i = 1, 100000 do t[i] = 65 end '
            'while true do local s = string.char(table.unpack(t)) end',
    'concat operator': BIG + 'while true do local u = s .. s end',
    'format with a big format': 'local f = string.rep("%%", {n} * 2^19) while true do local u = string.format(f) end',
    'format of big strings': BIG + 'while true do local u = string.format("%s%s", s, s) end',
    'format %q of control characters': 'local s = string.rep("\\0", {n} * 2^19) '
                                       'while true do local u = string.format("%q", s) end',
    'find plain': BIG + 'while true do local u = s:find("abc", 1, true) end',
    'find with a 2 MB pattern': 'local p = string.rep("a", 2^21 - 1) .. "b" local s = string.rep("a", 2^21) '
                                'return string.find(s, p .. ".")',
    'find with bracket classes': 'local p = string.rep("[a]", 400000) local s = string.rep("a", 400001) '
                                 'return string.find(s, p .. "x")',
    'match own matcher': BIG + 'while true do local u = s:match("%b()") end',
    'balance over nested brackets': 'local s = string.rep("(", {n} * 2^19) while true do local u = s:find("%b()") end',
    'gsub': BIG + 'while true do local u = s:gsub("a", "c") end',
    'gsub with a function': BIG + 'while true do local u = s:gsub("%w+", string.upper) end',
    'gmatch': BIG + 'while true do for w in s:gmatch("a") do end end',
    'pack': 'local s = string.rep("x", {n} * 2^20) while true do local p = string.pack("s4", s) end',
    'unpack a long format': 'local s = string.rep("x", 2^20) local f = string.rep("b", 100000) '
                            'while true do local n = select("#", string.unpack(f, s)) end',
    'tonumber': 'local s = string.rep("7", 300000) while true do local n = tonumber(s) end',
    'tonumber with a base': 'local s = string.rep("7", 300000) while true do local n = tonumber(s, 10) end',
    'table.concat': 'local t = {{}} for i = 1, 100000 do t[i] = "abcdefgh" end '
                    'while true do local u = table.concat(t) end',
    'table.sort': 'while true do local t = {{}} for i = 1, 100000 do t[i] = (i * 7919) % 100003 end '
                  'table.sort(t) end',
    'table.move': 'local t = {{}} for i = 1, 1000000 do t[i] = i end while true do table.move(t, 1, #t, 1, {{}}) end',
    'table.unpack': 'local t = {{}} for i = 1, 200000 do t[i] = i end '
                    'while true do local n = select("#", table.unpack(t)) end',
    'utf8.len': 'local s = string.rep("\\u{{4e2d}}", 2^20) while true do local n = utf8.len(s) end',
    'utf8.codepoint': 'local s = string.rep("\\u{{4e2d}}", 300000) '
                      'while true do local n = select("#", utf8.codepoint(s, 1, -1)) end',
    'utf8.char': 'local t = {{}} for i = 1, 200000 do t[i] = 0x4e2d end '
                 'while true do local s = utf8.char(table.unpack(t)) end',
    'utf8.offset': 'local s = string.rep("\\u{{4e2d}}", 2^20) while true do local n = utf8.offset(s, -1) '
                   'n = utf8.offset(s, 2^20) end',
    'collectgarbage over a big heap': 'local t = {{}} for i = 1, 200000 do t[i] = {{i}} end '
                                      'while true do local n = collectgarbage("count") end',
    'load of fresh sources': 'local i = 0 while true do i = i + 1 '
                             'local f = load(string.rep("local x = 1 ", 5000) .. "return " .. i) end',
    # Twice the last cancel's offset on this machine class: a single load
    # that ends first is not interrupted at all.
    'one load of a 2.4 MB source': 'local src = string.rep("local x = 1 + 2 * 3\\n", 120000) return load(src)',
    # Lua code alone: a function of 4,000 straight-line instructions
    # making no call, called in a loop, and while loops left before their
    # countdown's lap ends, nested.
    'a long straight-line function': 'local f = load("local x = 0 " .. string.rep("x = x % 7 + 1 ", 2000) .. "return x") '
                                     'while true do f() end',
    'nested short while loops': 'while true do local i = 0 while i < 200 do i = i + 1 '
                                'local k = 0 while k < 200 do k = k + 1 end end end',
    'pcall recursion': 'local function f() pcall(f) end while true do f() end',
    'stack overflow in pcall': 'local function f(n) return f(n + 1) + 1 end while true do pcall(f, 1) end',
}

# Sources each stage of the compiler finds hard (Lua expressions), loaded
# fresh in a loop by ``loading``.
HARD_SOURCES = {
    'many statements': 'string.rep("x = 1 + 2 * 3\\n", 4000)',
    'a big table constructor': '"return {" .. string.rep("1, ", 60000) .. "}"',
    'a long operator chain': '"return 1" .. string.rep(" + 1", 20000)',
    'a long chain of variables': '"local x = 1 return x" .. string.rep(" * x", 20000)',
    'many functions': 'string.rep("local function f() return 1 end\\n", 150) .. string.rep("x = 1\\n", 3000)',
    'a long string': '"return [[" .. string.rep("a", 3000000) .. "]]"',
    'a string of escapes': '"return \\"" .. string.rep("\\\\x41\\\\065\\\\n", 300000) .. "\\""',
    'deep nesting': 'string.rep("if x then ", 150) .. "y = 1 " .. string.rep("end ", 150)',
}


def loading(source: str) -> str:
    """A program loading the source Lua expression ``source`` gives, fresh each time, forever."""
    return ('local src = %s local i = 0 '
            'while true do i = i + 1 local f = assert(load(src .. "\\n-- " .. i)) end' % source)


MT = 'local mt = {} local a, b = setmetatable({}, mt), setmetatable({}, mt) '

@dataclass(frozen=True)
class Recursion:
    """A recursion through metamethods, library callbacks or coroutines,
    and the error lua5.4 ends it with (checked with lua5.4, chunk name "=c")."""
    source: str
    message: str


def _meta(body, message='c:1: C stack overflow'):
    return Recursion('local mt = {} local a, b = setmetatable({}, mt), setmetatable({}, mt) ' + body, message)


RECURSIONS = {
    '__index': _meta('mt.__index = function(t, k) return t[k] end return a.x'),
    '__newindex': _meta('mt.__newindex = function(t, k, v) t[k] = v end a.x = 1'),
    '__add': _meta('mt.__add = function(x, y) return x + y end return a + 1'),
    '__unm': _meta('mt.__unm = function(x) return -x end return -a'),
    '__bnot': _meta('mt.__bnot = function(x) return ~x end return ~a'),
    '__eq': _meta('mt.__eq = function(x, y) return x == y end return a == b'),
    '__lt': _meta('mt.__lt = function(x, y) return x < y end return a < b'),
    '__le': _meta('mt.__le = function(x, y) return x <= y end return a <= b'),
    '__concat': _meta('mt.__concat = function(x, y) return x .. y end return a .. "x"'),
    '__len': _meta('mt.__len = function(x) return #x end return #a'),
    '__close': _meta('mt.__close = function() local x <close> = setmetatable({}, mt) end local x <close> = a'),
    '__tostring': _meta('mt.__tostring = function(x) return tostring(x) end return tostring(a)',
                        'C stack overflow'),
    '__pairs': _meta('mt.__pairs = function(t) return pairs(t) end return pairs(a)', 'C stack overflow'),
    '__index and __tostring': _meta('mt.__index = function(t) return tostring(t) end '
                                    'mt.__tostring = function(t) return t.x end return a.y'),
    'table.sort comparator': Recursion('local function cmp(x, y) table.sort({3, 2, 1}, cmp) return x < y end '
                                       'table.sort({3, 2, 1}, cmp)', 'C stack overflow'),
    'gsub callback': Recursion('local function f(c) return (string.gsub("a", "a", f)) end '
                               'return string.gsub("a", "a", f)', 'C stack overflow'),
    'coroutine.resume': Recursion('local function f() local ok, e = coroutine.resume(coroutine.create(f)) '
                                  'error(e, 0) end f()', 'C stack overflow'),
    # coroutine.wrap adds its caller's position at every level, as in lua5.4.
    'coroutine.wrap': Recursion('local function f() return coroutine.wrap(f)() end return f()',
                                'C stack overflow'),
    # Ordinary Lua recursion: a __call chain is not on the C stack.
    '__call': _meta('mt.__call = function(self) local r = self() return r end return a()',
                    'c:1: stack overflow'),
}

# Runs the recursion given as its argument again and again, each in a pcall.
RECURSION_LOOP = 'local f = load((...), "=c") while true do pcall(f) end'


# Allocators that keep what they allocate in the table ``t`` (declared
# before each program), until the memory error.
KEEPING = {
    'integers in an array': 'for i = 1, 1e8 do t[i] = i * 1000 end',
    'floats in an array': 'for i = 1, 1e8 do t[i] = i + 0.5 end',
    'string keys by t[k] = v': 'for i = 1, 1e8 do t["k" .. i] = i end',
    'tables from constructors': 'for i = 1, 1e8 do t[i] = {i, i, x = i} end',
    'table.pack': 'for i = 1, 1e8 do t[i] = table.pack(i, i, i) end',
    '{...}': 'local function f(...) return {...} end for i = 1, 1e8 do t[i] = f(i, i, i, i) end',
    'table.move': 'local src = {1, 2, 3} for i = 1, 1e8 do t[i] = table.move(src, 1, 3, 1, {}) end',
    'closures': 'for i = 1, 1e8 do t[i] = function() return i end end',
    'coroutines': 'for i = 1, 1e8 do t[i] = coroutine.create(function() end) end',
    'coroutine.wrap functions': 'for i = 1, 1e8 do t[i] = coroutine.wrap(function() end) end',
    'suspended coroutines': 'for i = 1, 1e8 do local co = coroutine.create(function(...) coroutine.yield(...) end) '
                            'coroutine.resume(co, i, i) t[i] = co end',
    'gmatch iterators': 'for i = 1, 1e8 do t[i] = ("x y"):gmatch("%a") end',
    'strings from rep and ..': 'for i = 1, 1e8 do t[i] = string.rep("x", 100) .. i end',
    'strings from format': 'for i = 1, 1e8 do t[i] = string.format("%d-%s", i, "abcdefghij") end',
    'strings from gsub': 'for i = 1, 1e8 do t[i] = ("ab" .. i):gsub("a", "c") end',
    'strings from pack': 'for i = 1, 1e8 do t[i] = string.pack("i8i8", i, i) end',
    'strings from table.concat': 'for i = 1, 1e8 do t[i] = table.concat({i, i}, ",") end',
    'big strings': 'for i = 1, 1e8 do t[i] = string.rep("x", 2^20) .. i end',
    'loaded chunks': 'for i = 1, 1e8 do t[i] = load("return " .. i) end',
}
# Loads of chunks of ordinary code, kept or one too big: compiling holds
# far more than the source (the parse, the translation, Python's compile)
# and a kept chunk keeps its compiled code.  ``load`` reports a refusal as
# lua_load does, returning 'not enough memory', which ``loaded`` raises.
_LOADED = 'local function loaded(f, e) if not f then error(e, 0) end return f end '
LOADING = {
    'chunks of code loaded': _LOADED + 'local src = string.rep("print(i, \'x\', t.y[1]) ", 100) '
                                       'for i = 1, 1e8 do t[i] = loaded(load(src .. "--" .. i)) end',
    'one oversized chunk': _LOADED + 'local f = loaded(load(string.rep("print(1, \'x\', t.y) ", 20000)))',
}
LOAD_REFUSED = 'error: not enough memory'
# Allocators that drop what they allocate: garbage, so they complete.
DROPPING = {
    'loaded chunks dropped': 'for i = 1, 3000 do local f = load("return " .. i) end',
    'big strings dropped': 'for i = 1, 300 do local s = string.rep("x", 2^20) .. i end',
}
ALLOCATORS = {**KEEPING, **LOADING, **DROPPING}
