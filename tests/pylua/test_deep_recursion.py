"""Recursion through metamethods, library callbacks and coroutines ends as
lua5.4 ends it: Lua makes those calls on its C stack, so about 200 nested
are ``C stack overflow``; a ``__call`` chain is ordinary Lua recursion,
``stack overflow``.  Each ends quickly and obeys ``cancel()``."""
import threading
import time

import pytest

from pylua import LuaInterrupt, LuaRuntime

MT = 'local mt = {} local a, b = setmetatable({}, mt), setmetatable({}, mt) '

# Program -> the message lua5.4 gives (checked with lua5.4, chunk name "=c").
RECURSIONS = {
    MT + 'mt.__index = function(t, k) return t[k] end return a.x': 'c:1: C stack overflow',
    MT + 'mt.__newindex = function(t, k, v) t[k] = v end a.x = 1': 'c:1: C stack overflow',
    MT + 'mt.__add = function(x, y) return x + y end return a + 1': 'c:1: C stack overflow',
    MT + 'mt.__unm = function(x) return -x end return -a': 'c:1: C stack overflow',
    MT + 'mt.__bnot = function(x) return ~x end return ~a': 'c:1: C stack overflow',
    MT + 'mt.__eq = function(x, y) return x == y end return a == b': 'c:1: C stack overflow',
    MT + 'mt.__lt = function(x, y) return x < y end return a < b': 'c:1: C stack overflow',
    MT + 'mt.__le = function(x, y) return x <= y end return a <= b': 'c:1: C stack overflow',
    MT + 'mt.__concat = function(x, y) return x .. y end return a .. "x"': 'c:1: C stack overflow',
    MT + 'mt.__len = function(x) return #x end return #a': 'c:1: C stack overflow',
    MT + 'mt.__close = function() local x <close> = setmetatable({}, mt) end '
         'local x <close> = a': 'c:1: C stack overflow',
    MT + 'mt.__tostring = function(x) return tostring(x) end return tostring(a)': 'C stack overflow',
    MT + 'mt.__pairs = function(t) return pairs(t) end return pairs(a)': 'C stack overflow',
    MT + 'mt.__index = function(t) return tostring(t) end mt.__tostring = function(t) return t.x end '
         'return a.y': 'c:1: C stack overflow',
    'local function cmp(x, y) table.sort({3, 2, 1}, cmp) return x < y end '
    'table.sort({3, 2, 1}, cmp)': 'C stack overflow',
    'local function f(c) return (string.gsub("a", "a", f)) end return string.gsub("a", "a", f)':
        'C stack overflow',
    'local function f() local ok, e = coroutine.resume(coroutine.create(f)) error(e, 0) end f()':
        'C stack overflow',
    'local function f() return coroutine.wrap(f)() end return f()': 'C stack overflow',
    MT + 'mt.__call = function(self) local r = self() return r end return a()': 'c:1: stack overflow',
}


@pytest.mark.parametrize('src', sorted(RECURSIONS))
def test_recursion_ends_quickly_in_lua_s_error(src):
    rt = LuaRuntime()
    start = time.perf_counter()
    ok, message = rt.execute('return pcall(load((...), "=c"))', src, name='=outer')
    assert ok is False and message.endswith(RECURSIONS[src])
    # coroutine.wrap adds its caller's position at every level, as in lua5.4.
    assert message == RECURSIONS[src] or src.startswith('local function f() return coroutine.wrap')
    # A stack overflow unwinds some 200,000 Python frames first.
    assert time.perf_counter() - start < (5 if 'C stack' in RECURSIONS[src] else 30)


# A C-stack recursion in a loop, with the cancel arriving anywhere in it.
@pytest.mark.parametrize('src', [s for s, m in RECURSIONS.items() if m.endswith('C stack overflow')][:6])
def test_recursion_through_metamethods_obeys_cancel(src):
    rt = LuaRuntime()
    ended = []

    def run():
        try:
            rt.execute('local f = load((...), "=c") while true do pcall(f) end', src, name='=outer')
        except LuaInterrupt:
            ended.append(time.perf_counter())
    runner = threading.Thread(target=run)
    runner.start()
    time.sleep(0.3)
    cancelled = time.perf_counter()
    rt.cancel()
    runner.join(10)
    assert ended and ended[0] - cancelled < 0.5


def test_a_coroutine_suspended_inside_metamethods_keeps_their_depth():
    # Resuming a coroutine suspended inside 150 nested __index calls nests
    # them again (Python resumes the chain on its C stack), so going 100
    # deeper there is a C stack overflow, however many such coroutines were
    # dropped before.
    rt = LuaRuntime()
    assert rt.execute('''
        local u = setmetatable({}, {__index = function(u, k)
            if k == 0 then return 0 end return u[k - 1] end})
        local t = setmetatable({}, {__index = function(t, k)
            if k == 0 then coroutine.yield() return u[100] end
            return t[k - 1]
        end})
        for i = 1, 20 do
            coroutine.wrap(function() return t[150] end)()
        end
        collectgarbage()
        local co = coroutine.create(function() return t[150] end)
        coroutine.resume(co)
        local ok, message = coroutine.resume(co)
        return message, u[150]
    ''', name='=c') == ('c:3: C stack overflow', 0)
